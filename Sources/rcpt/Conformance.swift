import ArgumentParser

/// `rcpt conformance`: run a validator against a mutation suite (issue #3; being built).
struct Conformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a receipt validator on a mutation suite and report what it accepted.",
        shouldDisplay: false
    )

    func run() throws {
        Console.error("rcpt conformance is not available yet")
        throw ExitCode(2)
    }
}

import ArgumentParser

/// `rcpt mutate`: build malformed and re-signed receipts (issue #3; being built).
struct Mutate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build malformed, expired and re-signed receipts from a named catalogue.",
        shouldDisplay: false
    )

    func run() throws {
        Console.error("rcpt mutate is not available yet")
        throw ExitCode(2)
    }
}

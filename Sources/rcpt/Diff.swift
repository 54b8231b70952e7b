import ArgumentParser

/// `rcpt diff`: compare two receipts (issue #5; being built).
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two receipts, field by field and layer by layer.",
        shouldDisplay: false
    )

    func run() throws {
        Console.error("rcpt diff is not available yet")
        throw ExitCode(2)
    }
}

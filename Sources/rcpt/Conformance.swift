import ArgumentParser
import Foundation
import ReceiptConformance
import ReceiptMutation
import ReceiptRendering

/// `rcpt conformance`: run a validator against a mutation suite.
struct Conformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a receipt validator on a mutation suite and report what it accepted.",
        discussion: """
            The validator is a shell command; {} is replaced by each receipt's path, and exit status 0 means it \
            accepted the receipt. The suite's manifest.json suggests one for `rcpt verify`. Exit codes: 0 every \
            must-reject receipt was rejected and the baseline accepted, 1 otherwise (a must-accept receipt that was \
            rejected is reported but is not a failure), 2 usage error or unreadable suite.
            """
    )

    @Option(help: ArgumentHelp("The validator command, with {} for the receipt's path.", valueName: "command"))
    var validator: String

    @Argument(help: ArgumentHelp("The suite directory written by `rcpt mutate --all`.", valueName: "dir"))
    var directory: String

    @Option(help: "Seconds each validator run may take before it is killed and counted as a failure.")
    var timeout: Double = 10

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Option(help: "Colour text output: auto, always or never.")
    var color: ColorChoice = .auto

    func validate() throws {
        guard validator.contains("{}") else { throw ValidationError("--validator must contain {} for the receipt's path") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }

    func run() throws {
        try Console.guarded {
            let showProgress = isatty(STDERR_FILENO) != 0
            let results: [ConformanceResult]
            do throws(MutationError) {
                results = try ConformanceRunner.run(command: validator, directory: directory, timeout: timeout) {
                    done, total in
                    guard showProgress else { return }
                    let width = 30
                    let filled = total == 0 ? width : done * width / total
                    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
                    FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)".utf8))
                    if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
                }
            } catch {
                throw CommandFailure.unreadable(error.message)
            }
            let report = ConformanceReport(results: results)
            switch format {
            case .json: Console.write(report.json())
            case .text: Console.write(report.text(style: TextStyle(useColor: useColor)))
            }
            return report.failed ? 1 : 0
        }
    }

    var useColor: Bool {
        switch color {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = ProcessInfo.processInfo.environment["NO_COLOR"], !noColor.isEmpty { return false }
            return isatty(STDOUT_FILENO) != 0
        }
    }
}

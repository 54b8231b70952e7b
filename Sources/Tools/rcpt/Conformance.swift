import ArgumentParser
import Foundation
import ReceiptConformance
import ReceiptDiagnostics
import ReceiptRendering
import ReceiptSuite

/// `rcpt conformance`: run a validator against a mutation suite.
struct Conformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run a receipt validator on a mutation suite and report what it accepted.",
        discussion: """
            The validator is a shell command run by /bin/sh in its own process group: {} is replaced by each \
            receipt's path, already shell-quoted (writing "{}" or '{}' works too). Exit status 0 means it accepted \
            the receipt; any other status means it rejected it (or, with --reject-codes, only the statuses listed \
            do, and any other is "errored"). 126 and 127 mean the command could not run; death by a signal (or a \
            shell's 128 + N) is a crash. The suite's manifest.json suggests a command line for `rcpt verify`.

            Runs go --jobs at a time (default: every core), results in the suite's order; --batch runs the \
            validator once, writing a path per line to its standard input and reading a verdict per line (its first \
            word, in any case, \(BatchValidator.acceptingPhrase): accepted; \(BatchValidator.rejectingPhrase): rejected; any other line is no verdict). A non-zero exit after an uncaught exception (a \
            Python traceback, a JVM, Node.js, .NET or Ruby exception, a Go or Rust panic, a Swift fatal error) is a \
            crash, not a rejection, unless --reject-codes lists its status (a validator that logs the exception \
            it handled): give rejections a status of their own (not Python's 1) to keep crashes apart.

            The baseline runs first (a suite's re-signed input; a findings folder's seeds): if the validator does \
            not accept it, the run stops and shows what it wrote, since its options must be wrong. A folder \
            without a must-accept baseline is refused.

            Each entry says who could make it (attacker: anyone without a key; a replay of a genuine document of \
            another app, device, version or time; or only the signer, a shape Apple never signs) and what accepting \
            it costs (concern): security (an attacker without Apple's key gains something), policy (a genuine \
            document your app may refuse or accept on purpose) or robustness (a signer-only shape: accepting it is \
            reported with the readers it would fool, and fails the run only with --fail-on robustness). The report \
            scores each concern, and --only runs one.

            Exit codes: 0 every must-reject security and policy entry rejected (and robustness ones with --fail-on \
            robustness) and the baseline accepted, with no crash, timeout, error or failure to run; 1 otherwise (a \
            must-accept entry rejected is reported as over-strict but is not a failure); 2 usage error, \
            unreadable suite, or interrupted (SIGINT, SIGTERM, SIGHUP: the validator's processes are stopped and \
            the run's files removed).

            Example:
              rcpt ca init testca && rcpt mutate real.receipt --all --ca testca --out-dir suite
              rcpt conformance --only security --validator './my-validator --receipt {}' suite
            """
    )

    @OptionGroup var validatorOptions: ValidatorOptions

    @Argument(help: ArgumentHelp("The suite directory written by `rcpt mutate --all`.", valueName: "dir"))
    var suiteArgument: String

    /// The suite's directory as it is joined to its files (no trailing slash).
    var directory: String { InputFiles.directoryPath(suiteArgument) }

    @Option(
        help: ArgumentHelp(
            "Run only the entries of one concern: security, policy or robustness (the baseline always runs).",
            valueName: "concern"))
    var only: Concern?

    @Option(
        help: ArgumentHelp(
            "Where the validator runs: device, or server (not run on the entries that rest on the device binding or the app version, which a server does not know). Default: the suite's own.",
            valueName: "context"))
    var context: ValidatorContext?

    @Option(
        help:
            "Output format: text, json (rcpt.conformance/2), junit (JUnit XML, a testcase per entry) or sarif (SARIF 2.1.0, a result per failure)."
    )
    var format: GateFormat = .text

    @Option(help: "Colour text output: auto, always or never (auto: on a terminal unless NO_COLOR is set).")
    var color: ColorChoice = .auto

    func run() throws {
        Interruption.stopValidatorsOnSignal("the suite")
        try Console.guarded {
            let showProgress = isatty(STDERR_FILENO) != 0
            let style = TextStyle(useColor: useColor)
            var options = ConformanceRunner.Options(
                command: validatorOptions.validator ?? "", timeout: validatorOptions.timeout,
                rejectCodes: validatorOptions.rejectCodes?.statuses, only: only,
                jobs: validatorOptions.processes, batch: validatorOptions.batch)
            options.context = context
            options.target = try validatorOptions.endpoint.validator(timeout: validatorOptions.timeout)
            let results: [ConformanceResult]
            do {
                results = try ConformanceRunner.run(options, directory: directory) { done, total in
                    guard showProgress else { return }
                    let width = 30
                    let filled = total == 0 ? width : done * width / total
                    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
                    Console.standardError("\r[\(bar)] \(done)/\(total)")
                    if done == total { Console.standardError("\n") }
                }
            } catch let failure as ConformanceRunner.BaselineFailure {
                let report = ConformanceReport(results: [failure.result], gate: validatorOptions.gate)
                switch format {
                case .json: Console.write(report.json())
                case .text: Console.write(Array(ConformanceReport.baselineText(failure.result, style: style).utf8))
                case .junit, .sarif:
                    Console.write(
                        format.ciDocument(report.ciReport(suite: directory, validator: validatorOptions.name))
                            ?? [])
                }
                return 1
            } catch let error as SuiteError {
                throw CommandFailure.unreadable(error.message)
            }
            if let manifest = try? Manifest.read(in: directory) {
                let skipped = ConformanceRunner.outOfContext(manifest, options: options)
                if !skipped.isEmpty {
                    Console.standardError(
                        "rcpt: \(skipped.count) entries not run: the validator's context (--context) does not ask it about them: \(skipped.joined(separator: ", "))\n"
                    )
                }
            }
            for name in validatorOptions.allowEntries where !results.contains(where: { $0.name == name }) {
                Console.standardError("rcpt: --allow-entry \(name) names no entry of \(directory)\n")
            }
            let report = ConformanceReport(results: results, gate: validatorOptions.gate)
            switch format {
            case .json: Console.write(report.json())
            case .text: Console.write(report.text(style: style))
            case .junit, .sarif:
                Console.write(
                    format.ciDocument(report.ciReport(suite: directory, validator: validatorOptions.name)) ?? [])
            }
            return report.failed ? 1 : 0
        }
    }

    var useColor: Bool { color.isOn }
}

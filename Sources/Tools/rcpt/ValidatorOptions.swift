import ArgumentParser
import Foundation
import ReceiptConformance
import ReceiptSuite

/// How `conformance` and `fuzz-validator` run the user's validator and judge it: the command (or, for
/// `conformance`, the HTTP endpoint), how long one run may take, which exit statuses mean "rejected", and which
/// concerns fail the gate.
struct ValidatorOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The validator: a shell command run by /bin/sh; {} is replaced by the input's path, already shell-quoted.",
            valueName: "command"))
    var validator: String?

    @OptionGroup var endpoint: TargetOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds the validator may take on one input before its process group is killed (a timeout is a failure).",
            valueName: "seconds"))
    var timeout: Double = 10

    @Option(
        name: .customLong("reject-codes"),
        help: ArgumentHelp(
            "Exit statuses from 1 to 255 that mean \"rejected\", comma-separated (default: any non-zero); any other non-zero status is then \"errored\". Not 126 or 127 (the command could not run) nor 129-192 (a shell's 128 + a signal: a crash); not with --batch, whose verdicts are lines.",
            valueName: "codes"))
    var rejectCodes: ExitStatuses?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Validator processes at a time (default: all cores; 1 with --batch).", valueName: "n"))
    var jobs: Int?

    @Option(
        name: .customLong("fail-on"),
        help: ArgumentHelp(
            "Also fail when an input of this concern is accepted: robustness (shapes only the signing key's holder can make, or cross-reader ambiguities; reported, not gated, by default). Security and policy always fail.",
            valueName: "concern"))
    var failOn: [Concern] = []

    @Option(
        name: .customLong("allow-entry"),
        help: ArgumentHelp(
            "An entry whose acceptance is reported but does not fail the run (repeatable): a policy your app chose, such as environment-other for a production server that accepts Sandbox documents for App Review. Crashes and hangs on it still fail.",
            valueName: "name"))
    var allowEntries: [String] = []

    @Flag(
        help: ArgumentHelp(
            "Run the validator once: input paths on its standard input, one verdict per line on its output (its first word, in any case, \(BatchValidator.acceptingPhrase): accepted; \(BatchValidator.rejectingPhrase): rejected; any other line is no verdict, and so is a name with a value that says otherwise, such as valid: false)."
        ))
    var batch = false

    func validate() throws {
        try SecondsOption.check(timeout, "--timeout")
        guard (jobs ?? 1) >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if endpoint.target != nil {
            guard validator == nil else { throw ValidationError("give --validator or --target, not both") }
            guard !batch, rejectCodes == nil else {
                throw ValidationError("--batch and --reject-codes are for a --validator command, not a --target")
            }
            return
        }
        guard let validator else {
            throw ValidationError("give the validator: --validator COMMAND (or --target URL for an HTTP endpoint)")
        }
        if let codes = rejectCodes?.statuses {
            guard !batch else {
                throw ValidationError(
                    "--reject-codes names exit statuses of a validator run per input; with --batch its verdicts are lines"
                )
            }
            let unusable = codes.filter { $0 == 126 || $0 == 127 || (129...192).contains($0) }.sorted()
            guard unusable.isEmpty else {
                throw ValidationError(
                    "--reject-codes cannot list \(unusable.map(String.init).joined(separator: ", ")): 126 and 127 mean the command could not run, 129-192 a shell's 128 + a signal (a crash)"
                )
            }
        }
        if batch && validator.contains("{}") {
            throw ValidationError(
                "with --batch the validator reads the paths on its standard input, one per line: leave {} out")
        }
        guard batch || validator.contains("{}") else {
            throw ValidationError(
                "--validator needs {} where the input's path goes (or --batch, to give paths on its standard input)")
        }
    }

    /// What the reports name as the validator: the command, or the endpoint's method and URL.
    var name: String { validator ?? endpoint.target.map { "\(endpoint.method) \($0)" } ?? "" }

    /// The arguments that name the same validator again (a replay line): --validator COMMAND, or --target and how
    /// it is posted to.
    var arguments: [String] {
        if let validator { return ["--validator", validator] + (batch ? ["--batch"] : []) }
        return endpoint.arguments
    }

    /// What fails the run: security and policy acceptances, and what --fail-on adds.
    var gate: Gate {
        var gate = Gate(failingAlsoOn: failOn)
        gate.allowedEntries = Set(allowEntries)
        return gate
    }

    /// Validator processes at a time: --jobs, else every core; one with --batch.
    var processes: Int { batch ? 1 : (jobs ?? ProcessInfo.processInfo.activeProcessorCount) }
}

/// Exit statuses as `--reject-codes` takes them: `1,3`, each from 1 to 255.
struct ExitStatuses: ExpressibleByArgument {
    var statuses: Set<Int32>

    init?(argument: String) {
        var statuses: Set<Int32> = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let status = Int32(part.trimmingCharacters(in: .whitespaces)), (1...255).contains(status) else {
                return nil
            }
            statuses.insert(status)
        }
        guard !statuses.isEmpty else { return nil }
        self.statuses = statuses
    }
}

extension Concern: ExpressibleByArgument {}

import ArgumentParser
import ReceiptInput
import ReceiptModel
import ReceiptValidation

/// How documents are read and judged, whatever is written of them: the wrapper, trust anchors, evaluation times and
/// the strict judgement (`dump`, `verify`, `report`, `diff`).
struct JudgingOptions: ParsableArguments {
    @Option(
        name: .customLong("input-format"),
        help:
            "How the input is wrapped: der or ber (raw), base64, pem, json (a verifyReceipt body) or jws (Apple's JWS, a notification or an API response holding them); default: detected."
    )
    var inputFormat: InputFormatArgument?

    @OptionGroup var trust: TrustOptions

    @Option(
        name: .customLong("at"),
        help: ArgumentHelp(
            "Evaluate certificates and expiry at: creation (the receipt's creation date), now, an RFC 3339 time, a date (UTC midnight) or epoch milliseconds.",
            valueName: "time"))
    var at: String = "creation"

    @Option(
        name: .customLong("status-at"),
        help: ArgumentHelp(
            "Judge subscriptions active or expired at this time instead (same forms as --at; e.g. now: was it validly issued, and is it active today?).",
            valueName: "time"))
    var statusAt: String?

    @Flag(
        help:
            "The strict judgement: a malformed value of a receipt attribute type Apple does not document, or a JWS claim that is null, is an error (by default a warning, as Apple tells validators to ignore such types and its libraries read null as absent)."
    )
    var strict = false

    func validate() throws {
        if let statusAt, EvaluationTime(argument: statusAt) == nil {
            throw ValidationError(
                "--status-at takes the same forms as --at, not '\(statusAt)'\(EvaluationTime.digitsHint(statusAt))")
        }
        guard EvaluationTime(argument: at) != nil else {
            throw ValidationError(
                "--at takes creation, now, an RFC 3339 time such as 2024-01-31T12:00:00Z, a date such as 2024-01-31 or epoch milliseconds such as 1706702400000, not '\(at)'\(EvaluationTime.digitsHint(at))"
            )
        }
    }

    var evaluationTime: EvaluationTime { EvaluationTime(argument: at) ?? .signed }

    /// The arguments that read and judge as these options do, for a reproduction line: the wrapper, trust, times and
    /// judgement (not the output's style).
    var arguments: [String] {
        var words: [String] = []
        if let inputFormat { words += ["--input-format", inputFormat.rawValue] }
        words += trust.arguments
        if at != "creation" { words += ["--at", at] }
        if let statusAt { words += ["--status-at", statusAt] }
        if strict { words.append("--strict") }
        return words
    }

    /// What `bytes` hold, from the one classifier (`InputClassifier`), with --input-format as its force.
    func classify(_ bytes: [UInt8]) -> ClassifiedInput {
        InputClassifier.classify(bytes, forced: inputFormat?.forced)
    }

    /// Inspection options from these flags and `expectations`.
    func inspectionOptions(_ expectations: Expectations = Expectations()) throws -> InspectionOptions {
        var options = try trust.inspectionOptions()
        options.time = evaluationTime
        options.expectations = expectations
        options.forcedFormat = inputFormat?.forced
        options.statusTime = statusAt.flatMap(EvaluationTime.init(argument:))
        options.strict = strict
        return options
    }
}

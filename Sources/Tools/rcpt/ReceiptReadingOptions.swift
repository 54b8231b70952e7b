import ArgumentParser
import Foundation
import ReceiptBatch
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptJWS
import ReceiptModel
import ReceiptRendering
import ReceiptValidation
import ReceiptVerifyReceipt

/// How receipts are read and judged: wrapper, trust anchors, evaluation time, and text styling.
struct ReceiptReadingOptions: ParsableArguments {
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

    @OptionGroup var style: OutputStyle

    @Flag(
        help:
            "The strict judgement: a malformed value of a receipt attribute type Apple does not document, or a JWS claim that is null, is an error (by default a warning, as Apple tells validators to ignore such types and its libraries read null as absent)."
    )
    var strict = false

    @Option(
        name: .customLong("request-date"),
        help: ArgumentHelp(
            "With --format verifyreceipt: the request_date to report, in the forms of --at (default: the --at time when it is one, else now).",
            valueName: "time"))
    var requestDateArgument: String?

    func validate() throws {
        if let requestDateArgument, Self.requestDate(requestDateArgument) == nil {
            throw ValidationError(
                "--request-date takes now, an RFC 3339 time, a date or epoch milliseconds, not '\(requestDateArgument)'"
            )
        }
        if let statusAt, EvaluationTime(argument: statusAt) == nil {
            throw ValidationError("--status-at takes the same forms as --at, not '\(statusAt)'")
        }
        guard EvaluationTime(argument: at) != nil else {
            throw ValidationError(
                "--at takes creation, now, an RFC 3339 time such as 2024-01-31T12:00:00Z, a date such as 2024-01-31 or epoch milliseconds such as 1706702400000, not '\(at)'"
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

    /// The `request_date` of a verifyReceipt response: --request-date, else the --at time when it is one, else now.
    func requestDate() throws -> AppleDate {
        if let requestDateArgument {
            guard let date = Self.requestDate(requestDateArgument) else {
                throw CommandFailure.usage("--request-date: cannot read '\(requestDateArgument)'")
            }
            return date
        }
        if case .date = evaluationTime, let date = Self.requestDate(at) { return date }
        return AppleDate(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// `now`, epoch milliseconds (kept to the millisecond), or an instant `--at` reads.
    static func requestDate(_ argument: String) -> AppleDate? {
        if argument == "now" {
            return AppleDate(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
        }
        if !argument.isEmpty, argument.count <= 15, argument.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let milliseconds = Int64(argument)
        {
            return AppleDate(milliseconds: milliseconds)
        }
        guard case .date(let date)? = EvaluationTime(argument: argument) else { return nil }
        return AppleDate(date)
    }

    /// What `bytes` hold, from the one classifier (`InputClassifier`), with --input-format as its force.
    func classify(_ bytes: [UInt8]) -> ClassifiedInput {
        InputClassifier.classify(bytes, forced: inputFormat.map { $0 == .jws ? .jws : .receipt($0.format ?? .binary) })
    }

    /// The input in `file` as the one classifier finds it, inspected by the reader of its kind.
    /// `jsonSchema`: with --format json, the schema of the document written to standard output when the input cannot
    /// be read at all (an `error` and `valid: false`), so a pipeline reading it gets one document whatever happened.
    func inspect(
        _ file: String, options: InspectionOptions,
        jsonSchema: String? = nil
    ) throws -> (document: Inspection, input: [UInt8]) {
        let input: [UInt8]
        switch InputFiles.load(file) {
        case .success(let bytes): input = bytes
        case .failure(let unreadable):
            if let jsonSchema {
                Console.write(
                    DumpJSON.unreadableDocument(
                        InputFiles.displayName(file), schema: jsonSchema,
                        reason: unreadable.reason, file: nil, pretty: !style.compact))
            }
            throw InputFiles.failure(file, unreadable)
        }
        return (Inspector.inspect(classify(input), input: input, options: options), input)
    }

    /// A document's report as `dump` or `verify` writes it in `format`.
    func write(
        _ document: Inspection, _ purpose: ReportPurpose, format: DocumentFormat, name: String,
        verbose: Bool, brief: Bool = false
    ) throws {
        let text = style.text
        switch format {
        case .html:
            throw CommandFailure.usage("--format html is written by ReportPage, from the input as classified")
        case .junit, .sarif:
            throw CommandFailure.usage("--format \(format.rawValue) reports many files for CI: use it with verify")
        case .json, .jsonl, .text, .verifyreceipt:
            break
        }
        if let inspection = document.jws {
            switch format {
            case .verifyreceipt:
                throw CommandFailure.usage("--format verifyreceipt describes App Store receipts; this input is a JWS")
            case .text:
                Console.write(
                    brief && purpose == .dump
                        ? JWSReport.briefText(inspection, name: name, style: text)
                        : JWSReport.text(inspection, purpose, name: name, style: text, verbose: verbose))
            default:
                Console.write(JWSReport.json(inspection, purpose, pretty: !style.compact))
            }
        } else if let inspection = document.receipt {
            switch (format, purpose) {
            case (.verifyreceipt, _):
                Console.write(try verifyReceiptResponse(inspection))
            case (.text, .dump):
                var renderer = DumpText(style: text)
                renderer.brief = brief
                renderer.verbose = verbose
                renderer.stream(inspection, name: name) { Console.write($0) }
            case (.text, .verify):
                Console.write(VerifyReport.text(inspection, name: name, style: text, verbose: verbose))
            case (_, .dump):
                DumpJSON.stream(inspection, pretty: !style.compact) { Console.write($0) }
            case (_, .verify):
                Console.write(VerifyReport.json(inspection, pretty: !style.compact))
            }
        }
    }

    /// The verifyReceipt response body for `inspection` (Apple's compact bytes unless pretty output was asked).
    func verifyReceiptResponse(_ inspection: ReceiptInspection) throws -> [UInt8] {
        VerifyReceiptResponse(inspection, requestDate: try requestDate()).json(pretty: !style.compact)
    }

    /// Inspection options from these flags and `expectations`.
    func inspectionOptions(_ expectations: Expectations = Expectations()) throws -> InspectionOptions {
        var options = try trust.inspectionOptions()
        options.time = evaluationTime
        options.expectations = expectations
        options.inputFormat = inputFormat?.format ?? nil
        options.statusTime = statusAt.flatMap(EvaluationTime.init(argument:))
        options.strict = strict
        return options
    }

}

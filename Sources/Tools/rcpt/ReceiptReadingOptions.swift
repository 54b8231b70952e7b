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

/// How `dump` and `verify` read, judge and write a document: the judging options, the text's style, and the
/// request_date of a verifyReceipt response.
struct ReceiptReadingOptions: ParsableArguments {
    @OptionGroup var judging: JudgingOptions

    @OptionGroup var style: OutputStyle

    @Option(
        name: .customLong("request-date"),
        help: ArgumentHelp(
            "With --format verifyreceipt: the request_date to report, in the forms of --at (default: the --at time when it is one, else now).",
            valueName: "time"))
    var requestDateArgument: String?

    func validate() throws {
        if let requestDateArgument, Self.requestDate(requestDateArgument) == nil {
            throw ValidationError(
                "--request-date takes now, an RFC 3339 time, a date or epoch milliseconds, not '\(requestDateArgument)'\(EvaluationTime.digitsHint(requestDateArgument))"
            )
        }
    }

    /// The `request_date` of a verifyReceipt response: --request-date, else the --at time when it is one, else now.
    func requestDate() throws -> AppleDate {
        if let requestDateArgument {
            guard let date = Self.requestDate(requestDateArgument) else {
                throw CommandFailure.usage("--request-date: cannot read '\(requestDateArgument)'")
            }
            return date
        }
        if case .date = judging.evaluationTime, let date = Self.requestDate(judging.at) { return date }
        return AppleDate(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// `now`, epoch milliseconds (kept to the millisecond), or an instant `--at` reads.
    static func requestDate(_ argument: String) -> AppleDate? {
        if argument == "now" {
            return AppleDate(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
        }
        if argument.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            return EvaluationTime.milliseconds(argument).map(AppleDate.init(milliseconds:))
        }
        guard case .date(let date)? = EvaluationTime(argument: argument) else { return nil }
        return AppleDate(date)
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
        return (Inspector.inspect(judging.classify(input), input: input, options: options), input)
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
}

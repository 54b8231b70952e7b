import ArgumentParser
import Foundation
import ReceiptBatch
import ReceiptDiagnostics
import ReceiptDiff
import ReceiptInput
import ReceiptJSON
import ReceiptModel
import ReceiptRendering
import ReceiptValidation
import ReceiptVerifyReceipt

/// `rcpt diff`: compare two receipts, field by field and layer by layer.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two receipts, field by field and layer by layer.",
        discussion: """
            Compares what dump shows of receipts A and B: input, container, certificates, signers, verification \
            and receipt (attributes and in-app records). Each change has a stable path, the old and new values and \
            the byte offsets in A and B.

            Matching: certificates by SHA-256 fingerprint, then by subject (a renewed certificate is changed, field \
            by field); signers by position; attributes by type and occurrence (attributes[type=2#0]); in-app \
            records by transaction_id, then original_transaction_id and purchase_date together, then by position \
            (never two records with different transaction ids). Records are named by what matched them: \
            in_app[transaction_id=…], in_app[original_transaction_id=…,purchase_date=…] or in_app[index=N], with #N \
            for a repeated id.

            The verdicts are compared too (verdict.valid, verdict.errors): two inputs verify judges differently \
            are never equal, whatever else they share.

            BER and DER encodings of the same receipt are equal. --encoding also reports the input's size, digest \
            and wrapper, indefinite and non-minimal lengths, constructed strings, SET order and encoded lengths \
            (--only input shows the input layer by itself). The signature covers the content, so a change to the \
            content also changes signers[0].signature.

            --ignore PATH leaves out the changes at PATH and below it:
              * matches any characters within a segment: in_app[*].purchase_date
              a segment without [...] matches any selector: in_app.purchase_date
              a selector without #N matches all occurrences: attributes[type=12]
              a single name matches that field at any depth: purchase_date
              an attribute's field name stands for it: receipt_creation_date
              a name in double quotes is one segment, dots and all: jws.payload."a.b"

            A verifyReceipt response body (JSON with a status, as captured from Apple) on either side is compared \
            with the other side's receipt as --format verifyreceipt makes it (or with another response): what \
            Apple said against what the receipt holds, field by field under response.*; in_app entries matched \
            by transaction_id. request_date* and the server's state (latest_receipt_info, latest_receipt, \
            pending_renewal_info) are not compared.

            Two JWS (tokens, notifications, API responses) are compared token by token: header members, x5c \
            certificates, payload claims (jws.payload.data.bundleId), verdicts, and nested tokens under \
            jws.nested[path]; the signature octets are encoding-level.

            Exit codes: 0 equal under the chosen options, 1 different, 2 unreadable input (the message says A: or \
            B:) or usage error. A malformed receipt is diffed as far as it could be read, and where reading stopped \
            is shown; the exit code is then 2, as rcpt verify's for it.

            Examples:
              rcpt diff old.receipt new.receipt
              rcpt diff --only receipt --ignore receipt_creation_date a.receipt b.receipt
              rcpt diff apple-response.json customer.receipt
              rcpt diff transaction-before.jws transaction-after.jws
            """
    )

    @OptionGroup var options: DiffOptionsGroup

    func run() throws {
        try Console.guarded {
            let patterns = try options.ignorePatterns()
            let inspectionOptions = try options.reading.judging.inspectionOptions()
            let inputA = try options.readInput(options.fileA, side: "A")
            let inputB = try options.readInput(options.fileB, side: "B")
            let classifiedA = options.reading.judging.classify(inputA)
            let classifiedB = options.reading.judging.classify(inputB)
            let (bytesA, bytesB) = (classifiedA.bytes, classifiedB.bytes)
            for (side, classified) in [("A", classifiedA), ("B", classifiedB)] {
                if let refusal = classified.refusal {
                    throw CommandFailure.unreadable("\(side): \(refusal.message) (\(refusal.code))")
                }
            }
            let jwsA = classifiedA.kind == .jws
            let jwsB = classifiedB.kind == .jws
            if jwsA || jwsB {
                guard jwsA && jwsB else {
                    throw CommandFailure.usage(
                        "\(jwsA ? "A" : "B") is a JWS and \(jwsA ? "B" : "A") is not: rcpt diff compares two JWS, or two receipts; `rcpt status` reads a receipt and tokens together and says where they disagree"
                    )
                }
                // Each side as verify judges it: the classifier's document, already read, and its findings.
                let inspectionA = JWSInspection.inspect(classifiedA, input: inputA, options: inspectionOptions)
                let inspectionB = JWSInspection.inspect(classifiedB, input: inputB, options: inspectionOptions)
                let result = JWSComparison.compare(
                    JWSDiffInput(name: InputFiles.displayName(options.fileA), inspection: inspectionA),
                    JWSDiffInput(name: InputFiles.displayName(options.fileB), inspection: inspectionB),
                    options: DiffOptions(layers: Set(options.only), encoding: options.encoding, ignore: patterns))
                return Self.stoppedReading(
                    render(result), [("A", inspectionA.readError), ("B", inspectionB.readError)])
            }
            let responseA = VerifyReceiptResponse.readBody(bytesA)
            let responseB = VerifyReceiptResponse.readBody(bytesB)
            if responseA != nil || responseB != nil {
                return try diffResponses(
                    bytesA, responseA, bytesB, responseB, patterns: patterns,
                    inspectionOptions: inspectionOptions)
            }
            let (inspectionA, inspectionB) = ReceiptDiff.inspect(
                (classifiedA, inputA), (classifiedB, inputB), options: inspectionOptions)
            for (side, inspection) in [("A", inspectionA), ("B", inspectionB)] {
                if let reason = ReceiptDiff.unreadableReason(inspection) {
                    throw CommandFailure.unreadable("\(side): \(reason)")
                }
            }
            let result = ReceiptDiff.compare(
                DiffInput(name: InputFiles.displayName(options.fileA), inspection: inspectionA),
                DiffInput(name: InputFiles.displayName(options.fileB), inspection: inspectionB),
                options: DiffOptions(layers: Set(options.only), encoding: options.encoding, ignore: patterns))
            return Self.stoppedReading(render(result), [("A", result.a.readError), ("B", result.b.readError)])
        }
    }

    /// `status`, unless reading a side stopped before its end (as `verify` says it, exit 2): then 2, each such side
    /// said on standard error; the diff shows what was read of it, as `report` shows a page.
    static func stoppedReading(_ status: Int32, _ sides: [(String, CodedError?)]) -> Int32 {
        var stopped = false
        for (side, error) in sides {
            guard let error else { continue }
            stopped = true
            let place = error.offset.map { " at offset \($0)" } ?? ""
            Console.error(
                "\(side): unreadable (\(error.code)\(place)): \(TerminalText.safe(error.message)); the diff shows what was read"
            )
        }
        return stopped ? 2 : status
    }

    /// Renders a diff of any kind, after warning of each `--ignore` pattern that matched nothing.
    func render(_ result: DiffResult) -> Int32 {
        for pattern in result.unusedIgnorePatterns {
            Console.error(
                "--ignore '\(pattern.description)' matched no change: check its path against the paths the diff "
                    + "prints (A and B may also simply agree there)")
        }
        switch options.format {
        case .json:
            DiffJSON.stream(result, pretty: !options.reading.style.compact) { Console.write($0) }
        case .text:
            DiffText(style: options.reading.style.text).stream(result) { Console.write($0) }
        }
        return result.isEqual ? 0 : 1
    }

    /// A verifyReceipt response on one side (or both): Apple's body against the other side's receipt as
    /// `--format verifyreceipt` makes it, or against another response.
    func diffResponses(
        _ bytesA: [UInt8], _ responseA: JSONDocument?, _ bytesB: [UInt8], _ responseB: JSONDocument?,
        patterns: [IgnorePattern], inspectionOptions: InspectionOptions
    ) throws -> Int32 {
        let requestDate = try options.reading.requestDate()
        func side(_ bytes: [UInt8], _ response: JSONDocument?, file: String, name: String) throws -> ResponseInput {
            let display = InputFiles.displayName(file)
            if let response { return ResponseInput(name: display, response: response, bytes: bytes) }
            let inspection = ReceiptInspector.inspect(bytes, options: inspectionOptions)
            if let reason = ReceiptDiff.unreadableReason(inspection) {
                throw CommandFailure.unreadable("\(name): \(reason)")
            }
            let body = VerifyReceiptResponse(inspection, requestDate: requestDate).json(pretty: false)
            guard let document = try? JSONDocument.read(body) else {
                throw CommandFailure.unreadable("\(name): its verifyreceipt form could not be read back")
            }
            return ResponseInput(name: display, verifyReceiptForm: document, of: inspection)
        }
        // Each side's verdict as `rcpt verify` gives it: a response's signed receipt (`latest_receipt`) and the
        // decoding beside it. A response without one holds Apple's decoding alone, nothing signed to judge: then
        // only the content is compared.
        func verdict(_ bytes: [UInt8]) -> Inspection {
            Inspector.inspect(bytes, options: inspectionOptions)
        }
        let verdicts = (verdict(bytesA), verdict(bytesB))
        let result = ResponseComparison.compare(
            try side(bytesA, responseA, file: options.fileA, name: "A"),
            try side(bytesB, responseB, file: options.fileB, name: "B"),
            verdicts: verdicts.0.readError == nil && verdicts.1.readError == nil ? verdicts : nil,
            options: DiffOptions(layers: Set(options.only), encoding: options.encoding, ignore: patterns))
        return render(result)
    }
}

extension DiffLayer: ExpressibleByArgument {}

/// The options of `rcpt diff`: two inputs, and otherwise what every receipt-reading command takes.
struct DiffOptionsGroup: ParsableArguments {
    @Argument(help: ArgumentHelp("Receipt A (the old one), or - for standard input.", valueName: "a"))
    var fileA: String

    @Argument(help: ArgumentHelp("Receipt B (the new one), or - for standard input.", valueName: "b"))
    var fileB: String

    @Option(
        name: .customLong("ignore"),
        help: ArgumentHelp(
            "Leave out changes at this path and below it (rules below). Repeatable.",
            valueName: "path"))
    var ignore: [String] = []

    @Flag(help: "Also report encoding-level differences (BER vs DER, lengths, order), equal by default.")
    var encoding = false

    @Option(
        name: .customLong("only"),
        help: ArgumentHelp(
            "Compare only this layer. Repeatable.",
            valueName: "layer"))
    var only: [DiffLayer] = []

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @OptionGroup var reading: ReceiptReadingOptions

    func validate() throws {
        if fileA == "-" && fileB == "-" {
            throw ValidationError("only one of A and B can be - (standard input)")
        }
        _ = try ignorePatterns()
    }

    /// The parsed `--ignore` patterns.
    func ignorePatterns() throws -> [IgnorePattern] {
        do throws(IgnorePattern.ParseError) {
            return try ignore.map { (text: String) throws(IgnorePattern.ParseError) -> IgnorePattern in
                try IgnorePattern(text)
            }
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// One input's bytes, from its file or standard input; failures name the side.
    func readInput(_ file: String, side: String) throws -> [UInt8] {
        do {
            return try InputFiles.read(file)
        } catch let failure as CommandFailure {
            throw CommandFailure.unreadable("\(side): \(failure.description)")
        }
    }
}

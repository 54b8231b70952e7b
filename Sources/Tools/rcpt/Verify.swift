import ArgumentParser
import Foundation
import ReceiptBatch
import ReceiptDiagnostics
import ReceiptInput
import ReceiptModel
import ReceiptRendering
import ReceiptSuite
import ReceiptValidation
import ReceiptVerifyReceipt
import Synchronization

/// `rcpt verify`: a verdict on a receipt.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a receipt's signature, certificate chain and content, and give a verdict.",
        discussion: """
            The signature must verify over the content and the signer's certificate must chain to a trusted root \
            (the bundled Apple Root CA, or each --root) at the evaluation time. The content must carry the \
            attributes every App Store receipt has; --bundle-id, --app-version, --device-id and --app-apple-id \
            (app_item_id, in a Production receipt) add checks.

            Apple's JWS (a StoreKit 2 transaction, renewal info or app transaction, a server notification, an App \
            Store Server API response) are verified as JWS: ES256 only, the x5c chain to Apple Root CA - G3 (or \
            --root) at the payload's signedDate (--at signed|now|DATE), Apple's markers, and --bundle-id, \
            --app-apple-id and --environment against the payload (an app transaction's applicationVersion \
            against --app-version; a StoreKit token's deviceVerification against --device-id); every nested JWS too.

            --format verifyreceipt prints the body Apple's verifyReceipt endpoint returns for the receipt \
            (status 0 when valid, else 21002 malformed or 21003 not authenticated; see README), with \
            request_date from --request-date.

            Exit codes: 0 valid, 1 invalid (any error-level finding), 2 unreadable input or usage error.

            Examples:
              rcpt verify --bundle-id com.example.app receipt.der
              rcpt verify --root Corpus/certs/StoreKitTestCertificate.cer xcode.receipt
              rcpt verify --at now --format json receipt.der | jq .valid
              rcpt verify --format verifyreceipt receipt.der | jq '.status, .receipt.in_app[].product_id'
              rcpt verify --bundle-id com.example.app signedTransaction.jws
            """
    )

    @OptionGroup var documents: DocumentFiles

    @Option(
        help:
            "Output format: text, json, jsonl (one compact rcpt.verify/1 object per receipt, for many receipts), verifyreceipt (the body Apple's verifyReceipt endpoint returns, made offline; --compact gives Apple's own bytes; one body per line for many receipts), junit (JUnit XML, a testcase per file), sarif (SARIF 2.1.0, a result per invalid or unreadable file) or html (the report page of rcpt report, with this verdict)."
    )
    var format: DocumentFormat = .text

    @Flag(
        help:
            "Descend into subdirectories of the directories given (links to directories found there are not followed).")
    var recursive = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Threads when verifying several receipts (default: all cores).", valueName: "n"))
    var jobs: Int?

    @OptionGroup var options: ReceiptReadingOptions

    @OptionGroup var expected: ExpectationOptions

    @Flag(name: .shortAndLong, help: "Also show info findings, and OpenSSL's raw error entries.")
    var verbose = false

    func validate() throws {
        // Here, not in run, so that a terminal with nothing piped in gets verify's own usage.
        _ = try InputFiles.orStandardInput(documents.files)
        guard (jobs ?? 1) >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if format == .html, isBatch {
            throw ValidationError("--format html writes the report page of one input (as rcpt report does)")
        }
        if format == .json, isBatch {
            throw ValidationError(
                "several inputs are verified with --format text, jsonl, junit, sarif or verifyreceipt, not json (one document)"
            )
        }
        if isBatch, documents.files.contains("-") {
            throw ValidationError("several receipts are read from files, not standard input")
        }
    }

    /// Several files, a directory, jsonl, junit or sarif: one line (or case) per receipt.
    var isBatch: Bool {
        format == .jsonl || format.isCIReport || InputFiles.areSeveral(documents.files)
    }

    /// The command that verifies `path` alone as this run did: the same trust, time, expectations and judgement,
    /// every word shell-quoted.
    func reproduction(of path: String) -> String {
        var words = ["rcpt", "verify"]
        words += options.judging.arguments + expected.arguments
        return (words + [path]).map(ShellWords.quoted).joined(separator: " ")
    }

    /// The inspection options of this run. Output that shows no record (all but verifyreceipt and html) lets the
    /// index drop each record's entries once the record is checked.
    func inspectionOptions() throws -> InspectionOptions {
        var inspection = try options.judging.inspectionOptions(expected.expectations)
        inspection.keepsRecords = format == .verifyreceipt || format == .html
        inspection.requiresBinding = expected.requireBinding
        return inspection
    }

    func run() throws {
        try Console.guarded {
            if isBatch {
                let style = options.style.text
                let jsonl = format == .jsonl
                if format == .verifyreceipt {
                    // Apple's endpoint describes receipts: anything else is the status of malformed data.
                    let requestDate = try options.requestDate()
                    let appleSpacing = options.style.compact
                    return try Batch.run(
                        documents.files, recursive: recursive, jobs: jobs,
                        options: try inspectionOptions(), failsOnInvalid: true,
                        kinds: [.receipt]
                    ) { inspection, _ in
                        guard let receipt = inspection?.receipt else { return Array("{\"status\":21002}\n".utf8) }
                        return VerifyReceiptResponse(receipt, requestDate: requestDate).jsonLine(
                            appleSpacing: appleSpacing)
                    }
                }
                if format.isCIReport {
                    // A case per file, collected as they finish and written in input order at the end.
                    let cases = Mutex([String: CIReport.Case]())
                    let started = Date()
                    let expanded = try InputFiles.documents(in: documents.files, recursive: recursive)
                    let status = Batch.run(expanded, jobs: jobs, options: try inspectionOptions(), failsOnInvalid: true)
                    {
                        inspection, path in
                        let verdict = CIReport.verdict(
                            path: path, document: inspection, reproduce: reproduction(of: path))
                        cases.withLock { $0[path] = verdict }
                        return []
                    }
                    let judged = cases.withLock { found in expanded.paths.compactMap { found[$0] } }
                    let report = CIReport.verdicts(
                        judged + expanded.skipped.map(CIReport.skipped),
                        seconds: Date().timeIntervalSince(started))
                    Console.write(report.written(junit: format == .junit))
                    return status
                }
                return try Batch.run(
                    documents.files, recursive: recursive, jobs: jobs,
                    options: try inspectionOptions(), failsOnInvalid: true
                ) {
                    inspection, path in
                    if let inspection, !jsonl {
                        return Array(BatchLine.line(inspection, name: path, style: style).utf8)
                    }
                    if let jws = inspection?.jws {
                        return JWSReport.json(jws, .verify, pretty: false, file: path)
                    }
                    if let receipt = inspection?.receipt {
                        return VerifyReport.jsonLine(receipt, file: path)
                    }
                    let reason = InputFile.problem(path)
                    return jsonl
                        ? DumpJSON.unreadableLine(path, schema: VerifyReport.schema, reason: reason)
                        : Array(BatchLine.unreadableFile(name: path, reason: reason, style: style).utf8)
                }
            }
            let file = try InputFiles.orStandardInput(documents.files)[0]
            var inspection = try inspectionOptions()
            // The text report does not show the input's digest: not worth a second pass over a large input.
            inspection.digestsInput = format == .json || format == .jsonl || format == .html
            if format == .html {
                let report = try ReportPage.make(file, options: options.judging, inspection: inspection)
                HTMLReport.write(report) { Console.write($0) }
                let document = report.document
                if ReportPage.status(of: document, path: file) == 2 { return 2 }
                return document.isValid ? 0 : 1
            }
            let document = try options.inspect(
                file, options: inspection,
                jsonSchema: format == .json ? VerifyReport.schema : nil
            ).document
            try options.write(document, .verify, format: format, name: InputFiles.displayName(file), verbose: verbose)
            // Unreadable at any layer (input, container or payload) is 2, as for dump; a negative verdict is 1.
            if document.readError != nil { return 2 }
            return document.isValid ? 0 : 1
        }
    }
}

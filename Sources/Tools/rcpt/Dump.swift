import ArgumentParser
import Foundation
import ReceiptBatch
import ReceiptInput
import ReceiptRendering
import ReceiptValidation
import ReceiptVerifyReceipt

/// `rcpt dump`: show everything in a receipt, or in many as JSON Lines.
struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Show everything in a receipt: container, certificates, signers, verification and every attribute.",
        discussion: """
            Malformed input is shown as far as it could be read, followed by the error and its byte offset.

            Several files or directories (their regular files, sorted) are dumped as JSON Lines (--format jsonl): one \
            rcpt.dump/1 object per receipt with a leading "file" member, unreadable ones included, in input order, \
            inspected on --jobs threads, with a progress bar and a summary on standard error.

            Exit codes: 0 every receipt was read completely (whatever its validity; use verify for a verdict), \
            2 unreadable input or usage error.

            A JWS (a StoreKit 2 token, a notification body, an API response holding tokens) is dumped as JWS: its parts, \
            header and x5c certificates, every claim with its type and offset, the signature, verdicts and nested \
            tokens (rcpt.dump/1 with "kind": "jws").

            Examples:
              rcpt dump receipt.der
              pbpaste | rcpt dump --format json | jq '.receipt.in_app[] | select(.cancellation_date)'
              rcpt dump --format jsonl --jobs 4 receipts/ > receipts.jsonl
            """
    )

    @OptionGroup var documents: DocumentFiles

    @Option(
        help:
            "Output format: text, json, jsonl (one compact JSON object per receipt, for many receipts), verifyreceipt (the body Apple's verifyReceipt endpoint returns for it), or html (the self-contained report page of rcpt report)."
    )
    var format: DumpFormat = .text

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Threads for --format jsonl (default: all cores).", valueName: "n"))
    var jobs: Int?

    @Flag(help: "With --format jsonl or --brief: descend into subdirectories of the directories given.")
    var recursive = false

    @Flag(
        help:
            "Text output: only the summary (a receipt: who it is for, the verdict, the purchases; a JWS: each token in a line, an API response's transactions newest first); several files or directories give a block each."
    )
    var brief = false

    @Flag(
        name: .shortAndLong, help: "Text output: also OpenSSL's raw error entries behind a sentence that explains them."
    )
    var verbose = false

    @OptionGroup var options: ReceiptReadingOptions

    func validate() throws {
        let files = try InputFiles.orStandardInput(documents.files)
        guard (jobs ?? 1) >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if format == .html && (InputFiles.areSeveral(files) || brief) {
            throw ValidationError("--format html writes the report page of one input (as rcpt report does)")
        }
        if InputFiles.areSeveral(files) && format != .jsonl && !(brief && format == .text) {
            let what = files.count == 1 ? "a directory holds several inputs: they are" : "several inputs are"
            throw ValidationError("\(what) dumped with --format jsonl, or --brief (a block each)")
        }
        if format == .jsonl && files.contains("-") {
            throw ValidationError("--format jsonl reads files and directories, not standard input")
        }
    }

    func run() throws {
        try Console.guarded {
            if format == .jsonl { return try runBatch() }
            let given = try InputFiles.orStandardInput(documents.files)
            var paths = given
            if InputFiles.areSeveral(given) {
                paths = try InputFiles.documents(in: given, recursive: recursive).paths
            }
            var inspectionOptions = try options.judging.inspectionOptions()
            // The JSON shows every record but reads each again as it writes it (`RecordRereader`), so the
            // read need not keep their entries.
            inspectionOptions.keepsRecords = format != .json
            if format == .html {
                let report = try ReportPage.make(paths[0], options: options.judging, inspection: inspectionOptions)
                HTMLReport.write(report) { Console.write($0) }
                let document = report.document
                return ReportPage.status(of: document, path: paths[0])
            }
            var status: Int32 = 0
            for (index, file) in paths.enumerated() {
                if index > 0 { Console.write("\n") }
                let document: Inspection
                let input: [UInt8]
                do {
                    (document, input) = try options.inspect(
                        file, options: inspectionOptions,
                        jsonSchema: format == .json ? DumpJSON.schema : nil)
                } catch let failure as CommandFailure where paths.count > 1 {
                    // One unreadable file among many is said in its place; the others are still dumped.
                    Console.error(failure.description)
                    status = 2
                    continue
                }
                try options.write(
                    document, .dump, format: format.document, name: InputFiles.displayName(file), verbose: verbose,
                    brief: brief)
                if format == .text, let response = VerifyReceiptResponse.readBody(input) {
                    Console.write(
                        "\n" + PurchaseSummaryText.response(response, style: options.style.text))
                }
                // Unreadable at any layer is 2; a dump has no verdict to fail on.
                if document.readError != nil { status = 2 }
            }
            return status
        }
    }

    func runBatch() throws -> Int32 {
        try Batch.run(
            documents.files, recursive: recursive, jobs: jobs, options: try options.judging.inspectionOptions(),
            failsOnInvalid: false
        ) { inspection, path in
            if let jws = inspection?.jws { return JWSReport.json(jws, .dump, pretty: false, file: path) }
            if let receipt = inspection?.receipt { return DumpJSON.batchLine(receipt, path) }
            return DumpJSON.unreadableLine(path, schema: DumpJSON.schema, reason: InputFile.problem(path))
        }
    }
}

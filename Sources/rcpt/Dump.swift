import ArgumentParser
import ReceiptBatch
import Foundation
import ReceiptInput
import ReceiptRendering
import ReceiptValidation

/// `rcpt dump`: show everything in a receipt, or in many as JSON Lines.
struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    @Argument(help: ArgumentHelp("Receipt files or directories, or - for standard input (the default when it is piped).",
                                 valueName: "file"))
    var files: [String] = []

    @Option(help: "Output format: text, json, jsonl (one compact JSON object per receipt, for many receipts), or verifyreceipt (the body Apple's verifyReceipt endpoint returns for it).")
    var format: DocumentFormat = .text

    @Option(help: ArgumentHelp("Threads for --format jsonl (default: all cores).", valueName: "n"))
    var jobs: Int?

    @Flag(help: "With --format jsonl: descend into subdirectories of the directories given.")
    var recursive = false

    @Flag(help: "Text output: only the summary (who the receipt is for, the verdict, the purchases).")
    var brief = false

    @Flag(name: .shortAndLong, help: "Text output: also OpenSSL's raw error entries behind a sentence that explains them.")
    var verbose = false

    @OptionGroup var options: ReceiptReadingOptions

    func validate() throws {
        let files = try InputFiles.orStandardInput(self.files)
        guard (jobs ?? 1) >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if InputFiles.areSeveral(files) && format != .jsonl {
            throw ValidationError("several receipts are dumped with --format jsonl")
        }
        if format == .jsonl && files.contains("-") {
            throw ValidationError("--format jsonl reads files and directories, not standard input")
        }
    }

    func run() throws {
        try Console.guarded {
            if format == .jsonl { return try runBatch() }
            let file = try InputFiles.orStandardInput(files)[0]
            let input = try InputFiles.read(file)
            let classified = options.classify(input)
            if classified.kind == .jws { return try dumpJWS(classified, input: input, name: InputFiles.displayName(file)) }
            let inspection = ClassifiedInspection.receipt(classified, input: input, options: try options.inspectionOptions())
            switch format {
            case .json, .jsonl:
                DumpJSON.stream(inspection, pretty: !options.compact) { Console.write($0) }
            case .verifyreceipt:
                Console.write(try options.verifyReceiptResponse(inspection))
            case .text:
                var renderer = DumpText(style: TextStyle(useColor: options.useColor()))
                renderer.brief = brief
                renderer.verbose = verbose
                renderer.stream(inspection, name: InputFiles.displayName(file)) { Console.write($0) }
            }
            return inspection.readError == nil ? 0 : 2
        }
    }

    /// A JWS input (a token, a notification, an API response): its tokens, claims, certificates and verdicts.
    func dumpJWS(_ classified: ClassifiedInput, input: [UInt8], name: String) throws -> Int32 {
        let inspection = ClassifiedInspection.jws(classified, input: input, options: try options.jwsOptions())
        try options.write(inspection, .dump, format: format, name: name, verbose: verbose)
        return inspection.readError == nil ? 0 : 2
    }

    func runBatch() throws -> Int32 {
        Batch.run(files, recursive: recursive, jobs: jobs, options: try options.inspectionOptions(),
                  failsOnInvalid: false,
                  jws: (try options.jwsOptions(), { inspection, path in
                      JWSReport.json(inspection, .dump, pretty: false, file: path)
                  }), line: DumpJSON.batchLine)
    }
}

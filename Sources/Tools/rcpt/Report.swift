import ArgumentParser
import Foundation
import ReceiptBatch
import ReceiptDiagnostics
import ReceiptInput
import ReceiptRendering
import ReceiptValidation

/// `rcpt report`: a self-contained HTML page of one receipt or JWS, to look at rather than read.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract:
            "Write a self-contained HTML report of a receipt or JWS: the structure beside its bytes, the verdict, findings on the bytes, certificate validity and a purchase timeline.",
        discussion: """
            One HTML file with its style and script inline: it fetches nothing, runs no script but its own (a \
            Content-Security-Policy allows only that), and shows every string from the input as text.

            The page shows the verdict and its codes on top; the structure as a tree (a receipt: ContentInfo, \
            SignedData, certificates, signer, the payload's attributes by name and every in-app record; a JWS: each \
            token, its parts, each part decoded, the header, the x5c certificates, the claims, nested tokens) beside \
            the bytes in hex. Selecting a node highlights its bytes; selecting a byte selects the innermost node that \
            holds it (in base64url text, the node in the decoded bytes); a node copies as hex, base64 or JSON. Every \
            finding is listed, linked to its node and marked at its offset. Below: each certificate chain's validity \
            periods against the evaluation time, and a timeline of the purchases, renewals, expiries and revocations \
            the document states.

            Exit codes: 0 the report was written, 2 unreadable input (the report, showing how far it was read, is \
            still written) or usage error. The verdict is on the page; use verify to fail on it.

            Examples:
              rcpt report receipt.der -o receipt.html
              rcpt report notification.json -o notification.html
              pbpaste | rcpt report - > pasted.html
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The receipt or JWS file, or - for standard input (the default when it is piped).",
            valueName: "file"))
    var file: String?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Where to write the page (default: standard output, when it is not a terminal).",
            valueName: "file"))
    var output: String?

    @OptionGroup var options: JudgingOptions

    func validate() throws {
        _ = try InputFiles.orStandardInput(file.map { [$0] } ?? [])
        if output == nil && isatty(STDOUT_FILENO) != 0 {
            throw ValidationError("the report is an HTML page: give -o report.html, or redirect standard output")
        }
    }

    func run() throws {
        try Console.guarded {
            let path = try InputFiles.orStandardInput(file.map { [$0] } ?? [])[0]
            if let output, path != "-", ReportPage.isSameFile(path, output) {
                throw CommandFailure.usage(
                    "-o \(TerminalText.safe(output)) is the input itself: the report would overwrite it")
            }
            let report = try ReportPage.make(path, options: options, inspection: try options.inspectionOptions())
            if let output {
                try ReportPage.write(report, to: output)
            } else {
                HTMLReport.write(report) { Console.write($0) }
            }
            return ReportPage.status(of: report.document, path: path)
        }
    }
}

/// The report page of one input, for `rcpt report` and `--format html` of dump and verify.
enum ReportPage {
    /// The report of the input in `path`: its inspection and everything the page shows of it.
    static func make(_ path: String, options: JudgingOptions, inspection: InspectionOptions) throws
        -> ReportDocument
    {
        let input = try InputFiles.read(path)
        let classified = options.classify(input)
        let document = Inspector.inspect(classified, input: input, options: inspection)
        return ReportDocument(
            name: InputFiles.displayName(path), document: document,
            bytes: classified.bytes.isEmpty ? input : classified.bytes, input: input,
            customRoots: !options.trust.roots.isEmpty)
    }

    /// Writes the page to `output` a piece at a time, or says why it cannot.
    static func write(_ report: ReportDocument, to output: String) throws {
        let shown = TerminalText.safe(output)
        let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = InputFiles.isDirectory(output) ? "it is a directory" : String(cString: strerror(errno))
            throw CommandFailure.unreadable("cannot write \(shown): \(reason)")
        }
        // write(2) a piece at a time, every error kept: a full disk (`-o /dev/full`) is no page written.
        var failure: Int32?
        HTMLReport.write(report) { piece in
            var offset = 0
            while failure == nil, offset < piece.count {
                guard let base = piece.baseAddress else { return }
                let written = Foundation.write(descriptor, base + offset, piece.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { failure = written < 0 ? errno : EIO } else { offset += written }
            }
        }
        if close(descriptor) != 0, failure == nil, errno != EINTR { failure = errno }
        if let failure {
            throw CommandFailure.unreadable("cannot write \(shown): \(String(cString: strerror(failure)))")
        }
    }

    /// 0 when the document was read, else 2 with the reason on standard error (the page shows how far it went).
    static func status(of document: Inspection, path: String) -> Int32 {
        guard let error = document.readError else { return 0 }
        let place = error.offset.map { " at offset \($0)" } ?? ""
        Console.error(
            "\(TerminalText.safe(InputFiles.displayName(path))): unreadable (\(error.code)\(place)): "
                + TerminalText.safe(error.message) + "; the report shows how far it was read")
        return 2
    }

    /// Whether two paths name one file (the same device and inode), so -o never replaces its own input.
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }
}

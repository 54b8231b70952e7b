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

/// How a command writes its result.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

/// How `dump` and `verify` write a document: text, one JSON document, one JSON line per input, or the body Apple's
/// verifyReceipt endpoint returns; for `verify` of many files also JUnit XML or SARIF, a case per file.
enum DocumentFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case jsonl
    case verifyreceipt
    case junit
    case sarif
    case html

    /// Whether the format reports many files at once, for CI systems.
    var isCIReport: Bool { self == .junit || self == .sarif }
}

/// The formats `dump` writes: `DocumentFormat` less the CI verdict reports (JUnit, SARIF), which only `verify`
/// writes, so `dump --help` lists only what `dump` takes.
enum DumpFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case jsonl
    case verifyreceipt
    case html

    var document: DocumentFormat {
        switch self {
        case .text: return .text
        case .json: return .json
        case .jsonl: return .jsonl
        case .verifyreceipt: return .verifyreceipt
        case .html: return .html
        }
    }
}

/// How `conformance` and `fuzz-validator` report: text, their JSON, JUnit XML (CI test tabs) or SARIF 2.1.0 (code
/// scanning).
enum GateFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case junit
    case sarif

    /// The report in this format, for `junit` and `sarif`; nil for the others.
    func ciDocument(_ report: CIReport) -> [UInt8]? {
        switch self {
        case .junit, .sarif: return report.written(junit: self == .junit)
        case .text, .json: return nil
        }
    }
}

/// When to colour text output.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto
    case always
    case never

    /// Whether to colour: `auto` colours a terminal unless NO_COLOR is set (no-color.org).
    var isOn: Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = ProcessInfo.processInfo.environment["NO_COLOR"], !noColor.isEmpty { return false }
            return isatty(STDOUT_FILENO) != 0
        }
    }
}

/// The words `--input-format` takes: the ones the dump prints (der, ber, base64, pem, json), and the older names.
enum InputFormatArgument: String, ExpressibleByArgument, CaseIterable {
    case der, ber, base64, pem, json, jws
    case binary
    case jsonRequest = "json-request"

    /// The receipt wrapper, or nil for `jws` (Apple's JWS, read by the JWS reader).
    var format: InputFormat? {
        switch self {
        case .der, .ber, .binary: return .binary
        case .base64: return .base64
        case .pem: return .pem
        case .json, .jsonRequest: return .jsonRequest
        case .jws: return nil
        }
    }

    static var allValueStrings: [String] { ["der", "ber", "base64", "pem", "json", "jws"] }
}

/// How receipts are read and judged: wrapper, trust anchors, evaluation time, and text styling.
struct ReceiptReadingOptions: ParsableArguments {
    @Option(name: .customLong("input-format"),
            help: "How the input is wrapped: der or ber (raw), base64, pem, json (a verifyReceipt body) or jws (Apple's JWS, a notification or an API response holding them); default: detected.")
    var inputFormat: InputFormatArgument?

    @Option(name: .customLong("root"),
            help: ArgumentHelp("Trust this root certificate (PEM or DER) instead of the bundled Apple Root CA. Repeatable.",
                               valueName: "cert"))
    var roots: [String] = []

    @Option(name: .customLong("at"),
            help: ArgumentHelp("Evaluate certificates and expiry at: creation (the receipt's creation date), now, an RFC 3339 time, a date (UTC midnight) or epoch milliseconds.",
                               valueName: "time"))
    var at: String = "creation"

    @Option(name: .customLong("status-at"),
            help: ArgumentHelp("Judge subscriptions active or expired at this time instead (same forms as --at; e.g. now: was it validly issued, and is it active today?).",
                               valueName: "time"))
    var statusAt: String?

    @Option(help: "Colour text output: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    @Flag(help: "Write JSON on one line, without indentation (smaller and faster for machines).")
    var compact = false

    @Flag(help: "The strict judgement: a malformed value of a receipt attribute type Apple does not document, or a JWS claim that is null, is an error (by default a warning, as Apple tells validators to ignore such types and its libraries read null as absent).")
    var strict = false

    @Option(name: .customLong("request-date"),
            help: ArgumentHelp("With --format verifyreceipt: the request_date to report, in the forms of --at (default: the --at time when it is one, else now).",
                               valueName: "time"))
    var requestDateArgument: String?

    func validate() throws {
        if let requestDateArgument, Self.requestDate(requestDateArgument) == nil {
            throw ValidationError("--request-date takes now, an RFC 3339 time, a date or epoch milliseconds, not '\(requestDateArgument)'")
        }
        if let statusAt, EvaluationTime(argument: statusAt) == nil {
            throw ValidationError("--status-at takes the same forms as --at, not '\(statusAt)'")
        }
        guard EvaluationTime(argument: at) != nil else {
            throw ValidationError("--at takes creation, now, an RFC 3339 time such as 2024-01-31T12:00:00Z, a date such as 2024-01-31 or epoch milliseconds such as 1706702400000, not '\(at)'")
        }
    }

    var evaluationTime: EvaluationTime { EvaluationTime(argument: at) ?? .signed }

    /// The anchors to trust: the given roots, or the bundled Apple Root CA.
    func anchors() throws -> TrustAnchors {
        do {
            return roots.isEmpty ? try TrustAnchors.appleRoot() : try TrustAnchors.load(files: roots)
        } catch {
            throw CommandFailure.usage(error.message)
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
        if case .date = evaluationTime, let date = Self.requestDate(at) { return date }
        return AppleDate(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// `now`, epoch milliseconds (kept to the millisecond), or an instant `--at` reads.
    static func requestDate(_ argument: String) -> AppleDate? {
        if argument == "now" { return AppleDate(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))) }
        if !argument.isEmpty, argument.count <= 15, argument.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
           let milliseconds = Int64(argument) {
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
    func inspect(_ file: String, options: InspectionOptions,
                 jsonSchema: String? = nil) throws -> (document: Inspection, input: [UInt8]) {
        let input: [UInt8]
        switch InputFiles.load(file) {
        case .success(let bytes): input = bytes
        case .failure(let unreadable):
            if let jsonSchema {
                Console.write(DumpJSON.unreadableDocument(InputFiles.displayName(file), schema: jsonSchema,
                                                          reason: unreadable.reason, file: nil, pretty: !compact))
            }
            throw InputFiles.failure(file, unreadable)
        }
        return (Inspector.inspect(classify(input), input: input, options: options), input)
    }

    /// A document's report as `dump` or `verify` writes it in `format`.
    func write(_ document: Inspection, _ purpose: ReportPurpose, format: DocumentFormat, name: String,
               verbose: Bool, brief: Bool = false) throws {
        let style = TextStyle(useColor: useColor())
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
                Console.write(brief && purpose == .dump ? JWSReport.briefText(inspection, name: name, style: style)
                              : JWSReport.text(inspection, purpose, name: name, style: style, verbose: verbose))
            default:
                Console.write(JWSReport.json(inspection, purpose, pretty: !compact))
            }
        } else if let inspection = document.receipt {
            switch (format, purpose) {
            case (.verifyreceipt, _):
                Console.write(try verifyReceiptResponse(inspection))
            case (.text, .dump):
                var renderer = DumpText(style: style)
                renderer.brief = brief
                renderer.verbose = verbose
                renderer.stream(inspection, name: name) { Console.write($0) }
            case (.text, .verify):
                Console.write(VerifyReport.text(inspection, name: name, style: style, verbose: verbose))
            case (_, .dump):
                DumpJSON.stream(inspection, pretty: !compact) { Console.write($0) }
            case (_, .verify):
                Console.write(VerifyReport.json(inspection, pretty: !compact))
            }
        }
    }

    /// The verifyReceipt response body for `inspection` (Apple's compact bytes unless pretty output was asked).
    func verifyReceiptResponse(_ inspection: ReceiptInspection) throws -> [UInt8] {
        VerifyReceiptResponse(inspection, requestDate: try requestDate()).json(pretty: !compact)
    }

    /// Inspection options from these flags and `expectations`.
    func inspectionOptions(_ expectations: Expectations = Expectations()) throws -> InspectionOptions {
        var options = InspectionOptions(anchors: try anchors(), time: evaluationTime, expectations: expectations,
                                        inputFormat: inputFormat?.format ?? nil)
        // A JWS chains to Apple Root CA - G3 unless --root names the anchors of both kinds.
        if roots.isEmpty { options.jwsAnchors = .appleRootG3 }
        options.statusTime = statusAt.flatMap(EvaluationTime.init(argument:))
        options.strict = strict
        return options
    }

    func useColor() -> Bool { color.isOn }
}


/// Running one inspection per file over many files and directories.
enum Batch {
    /// Expands `files` (descending when `recursive`), runs `batch` with a progress bar on a terminal, then writes to
    /// standard error what was skipped as not a receipt and a summary that names every file that failed and why.
    /// Returns the exit code: 2 if any input was unreadable, else 1 if `failsOnInvalid` and any was invalid, else 0.
    /// Arguments that hold no document at all are a usage error (`InputFiles.documents`), never a pass.
    static func run(_ files: [String], recursive: Bool, jobs: Int?, options: InspectionOptions,
                    failsOnInvalid: Bool, kinds: Set<DocumentKind> = Set(DocumentKind.allCases),
                    line: @escaping @Sendable (Inspection?, String) -> [UInt8]) throws -> Int32 {
        run(try InputFiles.documents(in: files, recursive: recursive), jobs: jobs, options: options,
            failsOnInvalid: failsOnInvalid, kinds: kinds, line: line)
    }

    /// `run` over arguments already expanded (by `InputFiles.documents`), for a caller that needs the expansion too.
    static func run(_ expanded: (paths: [String], skipped: [BatchInspection.Skipped]), jobs: Int?,
                    options: InspectionOptions, failsOnInvalid: Bool, kinds: Set<DocumentKind> = Set(DocumentKind.allCases),
                    line: @escaping @Sendable (Inspection?, String) -> [UInt8]) -> Int32 {
        let batch = BatchInspection(paths: expanded.paths, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                    options: options, kinds: kinds, line: line)
        let showProgress = isatty(STDERR_FILENO) != 0
        let started = Date()
        let summary = batch.run(emit: { Console.write($0) }, progress: { done, total in
            guard showProgress, done == total || done % 100 == 0 else { return }
            let width = 30
            let filled = total == 0 ? width : done * width / total
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)".utf8))
            if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
        })
        let seconds = Date().timeIntervalSince(started)
        for failure in summary.failures {
            Console.error("failed \(TerminalText.safe(failure.path)): \(TerminalText.safe(failure.reason))")
        }
        Console.error("\(summary.receipts) receipts: \(summary.read) read (\(summary.valid) valid, "
                      + "\(summary.read - summary.valid) invalid), \(summary.unreadable) unreadable"
                      + (expanded.skipped.isEmpty ? "" : ", \(expanded.skipped.count) skipped as not receipts")
                      + ", in \(String(format: "%.2f", seconds)) s")
        if summary.unreadable > 0 { return 2 }
        return failsOnInvalid && summary.valid < summary.read ? 1 : 0
    }
}

/// Reading input files.
enum InputFiles {
    /// The files to read: the given ones, or standard input ("-") when none is given and it is not a terminal,
    /// as openssl and jq do.
    static func orStandardInput(_ files: [String]) throws -> [String] {
        if !files.isEmpty { return files }
        guard isatty(STDIN_FILENO) == 0 else {
            throw ValidationError("give a receipt file (or - for standard input), or pipe one in")
        }
        return ["-"]
    }

    /// Whether `path` names a directory.
    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    /// Whether `files` are more than one input: several paths, or a directory.
    static func areSeveral(_ files: [String]) -> Bool { files.count > 1 || files.contains(where: isDirectory) }

    /// Says on standard error what a directory scan left out, and why (names made terminal-safe).
    static func report(_ skipped: [BatchInspection.Skipped]) {
        for entry in skipped { Console.error("skipped \(TerminalText.safe(entry.path)): \(entry.reason)") }
    }

    /// The documents `arguments` name (files as given, directories expanded), with what the scan skipped said on
    /// standard error. Arguments that hold none — an empty directory, one of files that are all something else, a
    /// misspelt path in CI — are a usage error (exit 2), the same for every command: a gate that judged nothing
    /// must not pass.
    static func documents(in arguments: [String], recursive: Bool) throws -> (paths: [String], skipped: [BatchInspection.Skipped]) {
        let expanded = BatchInspection.expand(arguments, recursive: recursive)
        report(expanded.skipped)
        guard !expanded.paths.isEmpty else {
            throw CommandFailure.usage("no document found in \(arguments.map { TerminalText.safe($0) }.joined(separator: ", "))"
                                       + (expanded.skipped.isEmpty ? "" : " (\(expanded.skipped.count) skipped, said above)")
                                       + (recursive ? "" : "; documents in subdirectories need --recursive"))
        }
        return expanded
    }

    /// The bytes of `file`, or of standard input for `-`.
    static func read(_ file: String) throws -> [UInt8] {
        switch load(file) {
        case .success(let bytes): return bytes
        case .failure(let unreadable): throw failure(file, unreadable)
        }
    }

    /// The failure that ends a command whose input `file` cannot be read.
    static func failure(_ file: String, _ unreadable: InputFile.Unreadable) -> CommandFailure {
        .unreadable("cannot read \(file == "-" ? "standard input" : TerminalText.safe(file)): \(unreadable.reason)")
    }

    /// The bytes of `file`, or of standard input for `-`, or why they cannot be read.
    static func load(_ file: String) -> Result<[UInt8], InputFile.Unreadable> {
        file == "-" ? InputFile.load(descriptor: STDIN_FILENO) : InputFile.load(file)
    }

    /// The name to show for `file`.
    static func displayName(_ file: String) -> String { file == "-" ? "(stdin)" : file }
}

/// A failure that ends a command with a message on standard error and exit code 2.
enum CommandFailure: Error, CustomStringConvertible {
    case usage(String)
    case unreadable(String)

    var description: String {
        switch self {
        case .usage(let message), .unreadable(let message): return message
        }
    }
}

/// Output helpers: whole buffers to standard output, messages to standard error.
enum Console {
    /// The absolute path of the running rcpt (for command lines it suggests), or "rcpt" when it cannot be told.
    static var executablePath: String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        if let path = Bundle.main.executablePath { return path }
        return "rcpt"
    }

    static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    /// Writes a borrowed buffer (a streamed JSON chunk) whole.
    static func write(_ buffer: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < buffer.count, let base = buffer.baseAddress {
            let written = Foundation.write(STDOUT_FILENO, base + offset, buffer.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }

    static func write(_ text: String) { write(Array(text.utf8)) }

    static func error(_ message: String) {
        FileHandle.standardError.write(Data(("rcpt: " + message + "\n").utf8))
    }

    /// Runs `body`, turning a CommandFailure into its message and exit code 2.
    static func guarded(_ body: () throws -> Int32) throws -> Never {
        do {
            let code = try body()
            throw ExitCode(code)
        } catch let failure as CommandFailure {
            error(failure.description)
            throw ExitCode(2)
        }
    }
}

extension ReceiptEnvironment: ExpressibleByArgument {
    public init?(argument: String) {
        guard let found = ReceiptEnvironment.allCases.first(where: { $0.rawValue.lowercased() == argument.lowercased() })
        else { return nil }
        self = found
    }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

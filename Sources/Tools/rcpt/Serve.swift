import ArgumentParser
import Foundation
import ReceiptBatch
import ReceiptDiagnostics
import ReceiptHTTP
import ReceiptJSON
import ReceiptServe
import ReceiptSuite
import ReceiptValidation
import ReceiptVerifyReceipt

/// `rcpt serve`: a local stand-in for the Apple endpoints a backend calls, and the judgement of a backend's handling
/// of each of their answers.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Stand in for Apple's verifyReceipt and App Store Server API, to test a backend from the other side.",
        discussion: """
            Serves, on loopback: POST /verifyReceipt (production) and POST /sandbox/verifyReceipt, answered as \
            rcpt verify judges the posted receipt (--format verifyreceipt, with latest_receipt_info for a \
            subscription) or as --scenario says (a scenario's name, or a file whose JSON object is answered as it \
            is); GET /inApps/v1/transactions/ID, /inApps/v1|v2/history/ID and \
            /inApps/v1/subscriptions/ID, answered from the transactions and renewal infos in --documents, alone or \
            in notifications and API responses (genuine, signed by a TEST-ONLY CA with rcpt build --jws, or \
            mutations written by rcpt mutate; a transaction id \
            held by several files is answered with the first by name); POST /rcpt/scenario \
            {"verifyReceipt": NAME} (or {"verifyReceipt": {…an answer…}}) changes it while serving. Point the \
            backend's Apple URLs at it.

            The first line on standard output is {"schema":"rcpt.serve/1","event":"listening","url":…,"port":…}; \
            then one JSON line per request (rcpt.serve/1), or into --log. Bodies over --max-body are answered 413, connections beyond \
            --max-connections 503, a connection silent for 10 s is closed. SIGINT or SIGTERM stops it (exit 0).

            --judge RECEIPT judges a backend instead: for every scenario (--list-scenarios), the stand-in serves it \
            and RECEIPT is posted to the backend's purchase endpoint (--target, --body receipt-data …, as for \
            conformance); a careful backend grants the genuine answer (retrying a 21007 at the sandbox endpoint) \
            and refuses every other one. The backend must call this stand-in, so give --port and start the \
            backend with it first. A grant made without asking the stand-in is judged by a forged copy of the \
            receipt (one byte changed): granted too, the backend does not verify; refused, it verified elsewhere \
            or remembered the receipt (a cache), and the scenario is not judged.

            Exit codes: serving: 0 when stopped by SIGINT, SIGTERM or SIGHUP, 2 when the port cannot be taken. \
            --judge: 0 every scenario passed, 1 a backend failed one (granted what it must refuse, refused what it \
            must grant, crashed, no answer), 2 usage error, a receipt that does not verify, a backend that cannot \
            be reached or never calls the stand-in, scenarios not judged (a cache) and none failed, or a judgement \
            interrupted by a signal.

            Examples:
              rcpt serve --port 9000 --documents transactions/
              rcpt serve --port 9000 --judge receipt.b64 --target http://127.0.0.1:8000/purchase --body receipt-data
            """)

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "host"))
    var host = "127.0.0.1"

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The port to listen on; 0 takes a free one (printed on the first line).", valueName: "port"))
    var port = 0

    @Option(
        help: ArgumentHelp(
            "What verifyReceipt answers: a scenario's name (see --list-scenarios), or a file holding a JSON object served as it is.",
            valueName: "name|file"))
    var scenario = "genuine"

    @Flag(
        name: .customLong("list-scenarios"),
        help: "List the verifyReceipt scenarios and what a careful backend does with each.")
    var listScenarios = false

    @Option(
        help: ArgumentHelp(
            "A folder of signed transactions and renewal infos (alone, or in notifications and API responses) the App Store Server API stand-in answers with.",
            valueName: "dir"))
    var documents: String?

    @Option(
        help: ArgumentHelp(
            "Write the request log (JSON lines) to this file instead of standard output.", valueName: "file"))
    var log: String?

    @Option(
        name: .customLong("max-body"), parsing: .unconditional,
        help: ArgumentHelp("The largest request body accepted, in bytes.", valueName: "bytes"))
    var maxBody = 16 << 20

    @Option(
        name: .customLong("max-connections"), parsing: .unconditional,
        help: ArgumentHelp("The most connections open at once.", valueName: "count"))
    var maxConnections = 128

    @OptionGroup(title: "Trust")
    var trust: TrustOptions

    @Option(
        help: ArgumentHelp(
            "Judge the backend at --target with this receipt (DER or base64) instead of serving until stopped.",
            valueName: "receipt"))
    var judge: String?

    @OptionGroup(title: "Judged backend")
    var endpoint: TargetOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seconds to wait for the backend's answer (--judge).", valueName: "seconds"))
    var timeout: Double = 20

    @Option(
        help:
            "Output format of --judge and --list-scenarios: text, or json (rcpt.serve-judgement/1, rcpt.serve-scenarios/1)."
    )
    var format: Notify.NotifyFormat = .text

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0 to 65535") }
        guard VerifyReceiptScenario.named(scenario) != nil || FileManager.default.fileExists(atPath: scenario) else {
            throw ValidationError(
                "no scenario or file \(scenario); the scenarios are "
                    + VerifyReceiptScenario.catalogue.map(\.name).joined(separator: ", "))
        }
        try SecondsOption.check(timeout, "--timeout")
        guard maxBody > 0, maxConnections > 0 else {
            throw ValidationError("--max-body and --max-connections must be positive")
        }
        if judge != nil {
            guard endpoint.target != nil else { throw ValidationError("--judge needs the backend's --target URL") }
            guard port != 0 else {
                throw ValidationError(
                    "--judge needs a --port the backend was started with: the backend calls the stand-in there")
            }
        } else if endpoint.target != nil {
            throw ValidationError("--target is the backend --judge posts to: give --judge RECEIPT too")
        }
    }

    func run() throws {
        try Console.guarded {
            if listScenarios { return list() }
            var documents = ServerAPIDocuments()
            if let folder = self.documents {
                do {
                    documents = try ServerAPIDocuments(folder: folder)
                } catch {
                    throw CommandFailure.unreadable("cannot read the folder \(folder): \(error.localizedDescription)")
                }
            }
            let options = try trust.inspectionOptions()
            let standIn = AppleStandIn(
                options: options, documents: documents, scenario: try servedScenario(), keepsRequests: judge != nil)
            let logFile = try log.map { path -> FileHandle in
                guard FileManager.default.createFile(atPath: path, contents: nil),
                    let handle = FileHandle(forWritingAtPath: path)
                else { throw CommandFailure.unreadable("cannot write the log \(path)") }
                return handle
            }
            let requestLog = RequestLog(logFile ?? FileHandle.standardOutput)
            var limits = StandInServer.Limits()
            limits.maximumBody = maxBody
            limits.maximumConnections = maxConnections
            let judging = judge != nil
            // Serving stops with exit 0; a judgement stopped half-way says so and exits 2 (no verdict).
            let stopSignals = Interruption.blockStopSignals()
            if judging {
                Interruption.exitOnSignal { "interrupted (signal \($0)): the backend was not judged" }
            }
            let server: StandInServer
            do {
                server = try StandInServer.start(host: host, port: port, standIn: standIn, limits: limits) { entry in
                    // Judging writes the report on standard output: the log goes only to --log then.
                    if logFile != nil || !judging { requestLog.write(entry.jsonLine) }
                }
            } catch {
                throw CommandFailure.unreadable("cannot listen on \(host):\(port): \(error)")
            }
            if let folder = self.documents {
                Console.error(
                    "serving \(documents.transactions.count) transactions and \(documents.renewals.count) renewal infos from \(folder)"
                        + (documents.skipped.isEmpty
                            ? "" : "; \(documents.skipped.count) files are neither and were left out"))
            }
            if let judge {
                let code = try self.judge(judge, standIn: standIn, options: options, server: server)
                _ = requestLog.drain()
                return code
            }
            requestLog.write(
                JSONWriter.document(pretty: false) { json in
                    json.object { json in
                        json.member("schema", "rcpt.serve/1")
                        json.member("event", "listening")
                        json.member("url", "http://\(host.contains(":") ? "[\(host)]" : host):\(server.port)")
                        json.member("port", server.port)
                        json.member("scenario", standIn.currentScenario.name)
                        json.member("transactions", documents.transactions.count)
                    }
                })
            _ = Interruption.wait(stopSignals)
            server.stop()
            let lost = requestLog.drain()
            if lost > 0 {
                Console.error("\(lost) log lines were lost (the log's reader stopped reading, or a write failed)")
            }
            return 0
        }
    }

    /// The bytes of the regular file at `path`, through the one bounded reader of input files; a device, a pipe or
    /// a file that cannot be read is a usage failure naming `what`.
    static func regularFile(_ path: String, _ what: String) throws -> [UInt8] {
        if FileManager.default.fileExists(atPath: path), !InputFile.isRegular(path) {
            throw CommandFailure.unreadable("cannot read \(what) \(path): not a regular file")
        }
        switch InputFile.load(path) {
        case .success(let bytes): return bytes
        case .failure(let unreadable):
            throw CommandFailure.unreadable("cannot read \(what) \(path): \(unreadable.reason)")
        }
    }

    /// The scenario --scenario names, or the answer in the file it names.
    private func servedScenario() throws -> VerifyReceiptScenario {
        if let named = VerifyReceiptScenario.named(scenario) { return named }
        let data = try Self.regularFile(scenario, "the scenario file")
        guard data.count <= 16 << 20 else {
            throw CommandFailure.unreadable("the scenario file \(scenario) is over 16 MB")
        }
        let name = (scenario as NSString).lastPathComponent
        guard let literal = VerifyReceiptScenario.literal(name: name, body: data) else {
            throw CommandFailure.unreadable("\(scenario) is not a JSON object: it cannot be a verifyReceipt answer")
        }
        return literal
    }

    private func list() -> Int32 {
        let catalogue = VerifyReceiptScenario.catalogue
        switch format {
        case .text:
            let width = catalogue.map(\.name.count).max() ?? 0
            let lines = catalogue.map { scenario in
                TerminalText.column(scenario.name, width: width) + "  "
                    + TerminalText.column(scenario.expected.rawValue, width: 6) + " "
                    + TerminalText.column(scenario.attacker.rawValue, width: 7) + " " + scenario.summary
            }
            Console.write(TerminalText.column("name", width: width) + "  expect attacker\n")
            Console.write(lines.joined(separator: "\n") + "\n")
        case .json:
            Console.write(
                JSONWriter.document(pretty: true) { json in
                    json.object { json in
                        json.member("schema", "rcpt.serve-scenarios/1")
                        json.objects("scenarios", catalogue) { scenario, json in
                            json.member("name", scenario.name)
                            json.member("summary", scenario.summary)
                            json.member("expected", scenario.expected.rawValue)
                            json.member("attacker", scenario.attacker.rawValue)
                            json.member("threat", scenario.threat)
                        }
                    }
                })
        }
        return 0
    }

    private func judge(_ receipt: String, standIn: AppleStandIn, options: InspectionOptions, server: StandInServer)
        throws -> Int32
    {
        defer { server.stop() }
        // A regular file: the receipt is read again for every request the backend is sent.
        let file = try Self.regularFile(receipt, "the receipt")
        let probe = BackendJudgement.probe(file, options: options)
        guard probe.answer.appleStatus == VerifyReceiptStatus.valid else {
            throw CommandFailure.unreadable(
                "\(receipt) does not verify (\(probe.answer.summary)): the backend can only be judged with a receipt rcpt verify calls valid (--root for a TEST-ONLY CA's)"
            )
        }
        guard let backend = try endpoint.validator(timeout: timeout) else { return 2 }
        let judgement = BackendJudgement.run(
            backend: backend, receipt: file, standIn: standIn, hasSubscription: probe.hasSubscription)
        switch format {
        case .text: Console.write(judgement.text(backend: backend.name, receipt: receipt))
        case .json: Console.write(judgement.json(backend: backend.name, receipt: receipt, pretty: true))
        }
        switch judgement.outcome {
        case .passed: return 0
        case .failed:
            if let unjudged = judgement.unjudged { Console.error("warning: " + unjudged) }
            return 1
        case .notJudged:
            Console.error("warning: " + (judgement.problem ?? "scenarios not judged"))
            return 2
        case .noJudgement:
            Console.error("no judgement: " + (judgement.problem ?? "the backend was not set up to be judged"))
            return 2
        }
    }
}

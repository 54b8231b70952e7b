import Foundation
import ReceiptConformance
import ReceiptDiagnostics
import ReceiptSuite

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A backend's endpoint as a validator (`conformance --target URL`): a purchase-verification API or an App Store
/// Server Notifications webhook. Each document is posted in the shape the endpoint takes (`RequestBody`), and its
/// answer is the verdict: 2xx accepted (or, with an `AcceptRule`, only when the body says so), 4xx rejected, 5xx a
/// crash (an unhandled error behind the endpoint), a dropped connection or any other status no verdict, no answer
/// within the timeout a hang. Through Foundation's URLSession (libcurl on Linux): no HTTP code of rcpt's own.
package struct HTTPTarget: DocumentValidator {
    package var url: URL
    package var method: String
    package var headers: [Header]
    package var body: RequestBody
    package var acceptWhen: AcceptRule?
    package var timeout: Double
    private let session: HTTPSession

    /// One request header (`-H 'Name: value'`).
    package struct Header: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    package init(
        url: URL, method: String = "POST", headers: [Header] = [], body: RequestBody, acceptWhen: AcceptRule? = nil,
        timeout: Double
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.acceptWhen = acceptWhen
        self.timeout = timeout
        session = HTTPSession(timeout: timeout)
    }

    package var name: String { "\(method) \(Self.shown(url))" }

    /// `url` as rcpt shows it (reports, reproduction lines, CI logs): a password in it replaced by `***`.
    package static func shown(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.password != nil
        else { return url.absoluteString }
        components.password = "***"
        return components.string ?? url.absoluteString
    }

    /// The headers sent: a JSON content type unless the body is raw or `headers` names one, rcpt's User-Agent
    /// unless `headers` names one, then `headers`.
    var sentHeaders: [Header] {
        func named(_ name: String) -> Bool { headers.contains { $0.name.lowercased() == name } }
        return (named("content-type") || body == .raw ? [] : [Header(name: "Content-Type", value: "application/json")])
            + (named("user-agent") ? [] : [Header(name: "User-Agent", value: ToolVersion.userAgent)]) + headers
    }

    package func run(_ path: String) -> ValidatorRun {
        let exchange = self.exchange(path)
        let shown = exchange.status.map { "HTTP \($0)\n" + exchange.body } ?? ""
        return ValidatorRun(outcome: exchange.outcome, seconds: exchange.seconds, stderrTail: "", stdoutTail: shown)
    }

    /// One request and its answer.
    package struct Exchange: Sendable {
        /// The answer's HTTP status; nil when there was none.
        package var status: Int?
        /// The end of the answer's body (`ValidatorRun.tailBytes`), as text.
        package var body: String
        package var seconds: Double
        package var outcome: RunOutcome

        package init(status: Int?, body: String, seconds: Double, outcome: RunOutcome) {
            self.status = status
            self.body = body
            self.seconds = seconds
            self.outcome = outcome
        }
    }

    /// Posts the file at `path` in the target's shape and reads the answer.
    package func exchange(_ path: String) -> Exchange {
        guard let file = FileManager.default.contents(atPath: path) else {
            return Exchange(status: nil, body: "", seconds: 0, outcome: .unreachable(reason: "cannot read \(path)"))
        }
        return exchange(document: Array(file))
    }

    /// Posts `document` (a file's bytes) in the target's shape and reads the answer.
    package func exchange(document: [UInt8]) -> Exchange {
        let started = Date()
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        for header in sentHeaders { request.addValue(header.value, forHTTPHeaderField: header.name) }
        request.httpBody = Data(body.bytes(for: document))
        var exchange = Exchange(status: nil, body: "", seconds: 0, outcome: .timedOut)
        switch session.send(request, within: timeout) {
        case .answered(let status, let data):
            exchange.status = status
            exchange.body = String(decoding: data.suffix(ValidatorRun.tailBytes), as: UTF8.self)
            exchange.outcome = Self.outcome(status: status, body: data, acceptWhen: acceptWhen)
        case .timedOut: exchange.outcome = .timedOut
        case .failed(let reason): exchange.outcome = .unreachable(reason: reason)
        }
        exchange.seconds = Date().timeIntervalSince(started)
        return exchange
    }

    /// The verdict of an answer.
    package static func outcome(status: Int, body: Data, acceptWhen: AcceptRule?) -> RunOutcome {
        switch status {
        case 200..<300:
            if let acceptWhen, !acceptWhen.matches(body) { return .refused(httpStatus: status) }
            return .accepted
        case 400..<500: return .refused(httpStatus: status)
        case 500..<600: return .serverError(httpStatus: status)
        default: return .unreachable(reason: "answered HTTP \(status), neither a verdict nor an error")
        }
    }

    /// The curl command that sends the same request, short: the file itself (`--data-binary @FILE`) when it is the
    /// body, the body built from the file by `printf` when the document is plain base64 or a token, else the body
    /// inline.
    package func reproduction(of path: String) -> String {
        var words = ["curl", "-sS", "-X", method]
        for header in sentHeaders { words += ["-H", ShellWords.quoted("\(header.name): \(header.value)")] }
        let file = FileManager.default.contents(atPath: path).map { Array($0) } ?? []
        let quotedPath = ShellWords.quoted(path)
        let tail = words + ["--data-binary"]
        let url = ShellWords.quoted(Self.shown(url))
        switch body {
        case .raw:
            return (tail + ["@" + quotedPath, url]).joined(separator: " ")
        case .signedPayload, .receiptData:
            if RequestBody.isJSONObject(file), body.bytes(for: file) == file {
                return (tail + ["@" + quotedPath, url]).joined(separator: " ")
            }
            if RequestBody.isJSONObject(file) { break }
            let text = RequestBody.documentText(file)
            let plain = text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || Array("+/=._-".utf8).contains(byte)
            }
            guard plain, !text.isEmpty else { break }
            // The document from the file, as the body holds it: a DER receipt's base64, else the file's text.
            let document =
                RequestBody.isBinary(file)
                ? "$(openssl base64 -A -in \(quotedPath))" : "$(cat \(quotedPath))"
            let marker = "RCPT-DOCUMENT-MARKER"
            let format = String(decoding: body.holding(marker), as: UTF8.self)
                .replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "%%")
                .replacingOccurrences(of: marker, with: "%s")
            return "printf \(ShellWords.quoted(format)) \"\(document)\" | "
                + (tail + ["@-", url]).joined(separator: " ")
        case .template:
            break
        }
        return (tail + [ShellWords.quoted(String(decoding: body.bytes(for: file), as: UTF8.self)), url])
            .joined(separator: " ")
    }
}

import ArgumentParser
import Foundation
import ReceiptConformance
import ReceiptDiagnostics
import ReceiptHTTP
import ReceiptJSON
import ReceiptJWS

/// `rcpt notify URL DOCUMENT…`: App Store Server Notifications posted to a webhook as Apple posts them.
struct Notify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Post App Store Server Notifications to a webhook, as Apple does, and show each answer.",
        discussion: """
            Each DOCUMENT is posted to URL as the App Store posts a notification: {"signedPayload": "<token>"}, \
            Content-Type: application/json (a file that already is a JSON body is posted as it is). Post genuine \
            notifications, mutated ones (rcpt mutate), and genuine ones of another app or environment (a replay): \
            a webhook must refuse what it cannot verify, and answer 2xx only to what it accepted. Each answer is \
            shown: the HTTP status, the time it took, the start of its body. To judge a webhook against a whole \
            suite, with verdicts, use rcpt conformance --target URL --body signed-payload.

            Exit codes: 0 every document was answered with a status below 500; 1 a document was answered 5xx (the \
            webhook failed on it), not answered within --timeout, or not answered at all; 2 usage error or a \
            file that cannot be read (missing, a directory, empty). A file that is neither a token nor a JSON body \
            is posted all the same, with a note on standard error.

            Example:
              rcpt notify http://localhost:8080/appstore/notifications notification.jws suite/alg-none.jws
            """)

    @Argument(help: ArgumentHelp("The webhook's URL (http or https).", valueName: "url"))
    var url: String

    @Argument(help: ArgumentHelp("Notifications: tokens, or JSON bodies to post as they are.", valueName: "document"))
    var documents: [String] = []

    @Option(
        name: [.customShort("H"), .customLong("header")],
        help: ArgumentHelp("A request header, 'Name: value'. Repeatable.", valueName: "header"))
    var headers: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds to wait for each answer.", valueName: "seconds"))
    var timeout: Double = 10

    @Option(help: "Output format: text, or json (rcpt.notify/1).")
    var format: NotifyFormat = .text

    enum NotifyFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func validate() throws {
        guard !documents.isEmpty else { throw ValidationError("give at least one notification to post") }
        try SecondsOption.check(timeout, "--timeout")
        _ = try TargetOptions.headers(headers)
        guard TargetOptions.isHTTPURL(url) else {
            throw ValidationError(
                "the webhook needs an http:// or https:// URL with a host (and a port from 1 to 65535)")
        }
    }

    func run() throws {
        try Console.guarded {
            for document in documents {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: document, isDirectory: &isDirectory),
                    !isDirectory.boolValue, let contents = FileManager.default.contents(atPath: document)
                else {
                    throw CommandFailure.unreadable("cannot read \(document): nothing was posted")
                }
                guard !String(decoding: contents, as: UTF8.self).allSatisfy(\.isWhitespace) else {
                    throw CommandFailure.unreadable("\(document) is empty: nothing was posted")
                }
                // Anything is posted (a webhook must refuse what it cannot read), but never without saying so.
                if let shape = Self.notANotification(Array(contents)) {
                    Console.error(
                        "note: \(document) is \(shape), not a token or a JSON body; it is posted as the signedPayload string all the same"
                    )
                }
            }
            guard let endpoint = URL(string: url) else { return 2 }
            let target = HTTPTarget(
                url: endpoint, headers: try TargetOptions.headers(headers), body: .signedPayload, timeout: timeout)
            let exchanges = documents.map { (document: $0, exchange: target.exchange($0)) }
            switch format {
            case .text:
                var text = ""
                for (document, exchange) in exchanges {
                    let status = exchange.status.map { "HTTP \($0)" } ?? exchange.outcome.detail
                    let body = exchange.body.split(whereSeparator: \.isNewline).joined(separator: " ")
                    text +=
                        "\(document)  \(status)  \(String(format: "%.3f", exchange.seconds)) s"
                        + (body.isEmpty ? "" : "  \(TerminalText.safe(String(body.prefix(80))))") + "\n"
                }
                let failed = exchanges.filter { Self.isFailure($0.exchange) }.count
                text +=
                    "\(exchanges.count) posted to \(HTTPTarget.shown(endpoint)): \(exchanges.count - failed) answered below 500"
                    + (failed > 0 ? ", \(failed) failed (5xx, timeout or no answer)" : "") + "\n"
                Console.write(Array(text.utf8))
            case .json:
                var json = JSONWriter()
                json.object { json in
                    json.member("schema", "rcpt.notify/1")
                    json.member("url", HTTPTarget.shown(endpoint))
                    json.objects("answers", exchanges) { item, json in
                        json.member("file", item.document)
                        json.member("status", item.exchange.status)
                        json.member("observed", item.exchange.outcome.label)
                        json.member("detail", item.exchange.outcome.detail)
                        json.key("seconds")
                        json.number(text: String(format: "%.3f", item.exchange.seconds))
                        json.member("body", item.exchange.body)
                        json.member("failed", Self.isFailure(item.exchange))
                    }
                }
                Console.write(json.bytes + [0x0A])
            }
            return exchanges.contains { Self.isFailure($0.exchange) } ? 1 : 0
        }
    }

    /// What a file is when it is neither a compact JWS nor a JSON body (a notification as Apple posts it); nil when
    /// it is one of those.
    static func notANotification(_ file: [UInt8]) -> String? {
        if RequestBody.isJSONObject(file) { return nil }
        let text = RequestBody.documentText(file)
        if JWSReader.looksLikeCompactJWS(text.utf8), !text.contains(where: \.isWhitespace) { return nil }
        return RequestBody.isBinary(file) ? "binary (posted as its base64)" : "text"
    }

    /// Whether the webhook failed on a post: a 5xx, no answer in time, or none at all.
    static func isFailure(_ exchange: HTTPTarget.Exchange) -> Bool {
        guard let status = exchange.status else { return true }
        return status >= 500
    }
}

import ArgumentParser
import Foundation
import ReceiptConformance
import ReceiptHTTP

/// `--target URL` and how documents are posted to it: a backend's purchase API or notification webhook judged as
/// a validator (`conformance`).
struct TargetOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The HTTP endpoint judged (a purchase API or a notification webhook; for conformance and fuzz-validator, in place of --validator): each document is posted to it (--body); 2xx means accepted, 4xx rejected, 5xx a crash, no answer within --timeout a hang.",
            valueName: "url"))
    var target: String?

    @Option(
        help: ArgumentHelp(
            "How a document is posted to --target: receipt-data ({\"receipt-data\": base64}, as verifyReceipt takes it), signed-payload ({\"signedPayload\": token}, as the App Store posts to a webhook) or raw (the file's bytes). A file that already is a JSON body is sent as it is.",
            valueName: "shape"))
    var body: BodyShape?

    @Option(
        name: .customLong("body-template"),
        help: ArgumentHelp(
            "A file whose text is the body, with {{document}} replaced by the document as a JSON string's content (a receipt's base64, a token) and {{raw}} by the file as it is.",
            valueName: "file"))
    var bodyTemplate: String?

    @Option(
        name: .customLong("body-member"),
        help: ArgumentHelp(
            "A member added to a receipt-data body, NAME=VALUE (VALUE as JSON, else as a string): password=\"…\", exclude-old-transactions=true. Repeatable.",
            valueName: "name=value"))
    var bodyMembers: [String] = []

    @Option(help: ArgumentHelp("The HTTP method for --target.", valueName: "method"))
    var method: String = "POST"

    @Option(
        name: [.customShort("H"), .customLong("header")],
        help: ArgumentHelp("A request header for --target, 'Name: value'. Repeatable.", valueName: "header"))
    var headers: [String] = []

    @Option(
        name: .customLong("accept-when"),
        help: ArgumentHelp(
            "For an endpoint that answers 200 with its verdict in the body: a 2xx answer means accepted only when the JSON member at PATH (dotted, [N] for an element) has VALUE, e.g. status=0.",
            valueName: "path=value"))
    var acceptWhen: String?

    enum BodyShape: String, ExpressibleByArgument, CaseIterable {
        case receiptData = "receipt-data"
        case signedPayload = "signed-payload"
        case raw
    }

    func validate() throws {
        guard target != nil else {
            if body != nil || bodyTemplate != nil || !bodyMembers.isEmpty || !headers.isEmpty || acceptWhen != nil
                || method != "POST"
            {
                throw ValidationError(
                    "--body, --body-template, --body-member, -H, --method and --accept-when go with --target")
            }
            return
        }
        guard let target, Self.isHTTPURL(target) else {
            throw ValidationError("--target needs an http:// or https:// URL with a host (and a port from 1 to 65535)")
        }
        if body != nil && bodyTemplate != nil {
            throw ValidationError("give --body or --body-template, not both")
        }
        guard Self.isToken(method) else {
            throw ValidationError(
                "--method takes an HTTP method name (letters, digits and !#$%&'*+-.^_`|~), not \(method)")
        }
        guard (body == nil) != (bodyTemplate == nil) else {
            throw ValidationError(
                "--target needs how to post each document: --body receipt-data, signed-payload or raw, or --body-template FILE"
            )
        }
        if !bodyMembers.isEmpty && body != .receiptData {
            throw ValidationError("--body-member adds members to a --body receipt-data body")
        }
        _ = try members()
        _ = try parsedHeaders()
        if let acceptWhen, AcceptRule(acceptWhen) == nil {
            throw ValidationError("--accept-when takes PATH=VALUE, e.g. status=0 or result.valid=true")
        }
    }

    func members() throws -> [BodyMember] {
        try bodyMembers.map { text in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw ValidationError("--body-member takes NAME=VALUE, not \(text)")
            }
            let value = String(text[text.index(after: equals)...])
            let isJSON =
                (try? JSONSerialization.jsonObject(with: Data(value.utf8), options: [.fragmentsAllowed])) != nil
            let json = isJSON ? value : "\"" + RequestBody.jsonStringContent(value) + "\""
            return BodyMember(name: String(text[..<equals]), json: json)
        }
    }

    func parsedHeaders() throws -> [HTTPTarget.Header] { try Self.headers(headers) }

    /// `-H 'Name: value'` arguments as headers (also `notify`'s): a name that is an HTTP token, a value on one line.
    static func headers(_ arguments: [String]) throws -> [HTTPTarget.Header] {
        try arguments.map { text in
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex,
                isToken(String(text[..<colon]).trimmingCharacters(in: .whitespaces))
            else {
                throw ValidationError("-H takes 'Name: value', not \(text)")
            }
            guard !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) else {
                throw ValidationError("-H: a header may not hold a line break or another control character")
            }
            return HTTPTarget.Header(
                name: String(text[..<colon]).trimmingCharacters(in: .whitespaces),
                value: String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
    }

    /// Whether `text` is an http or https URL with a host and, if it names one, a port from 1 to 65535.
    static func isHTTPURL(_ text: String) -> Bool {
        guard let components = URLComponents(string: text),
            ["http", "https"].contains(components.scheme?.lowercased() ?? ""), !(components.host ?? "").isEmpty,
            URL(string: text) != nil
        else { return false }
        return components.port.map { (1...65535).contains($0) } ?? true
    }

    /// Whether `text` is an HTTP token (RFC 9110 §5.6.2): a method or a header name.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar)
                        || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
            }
    }

    /// The arguments that give the same endpoint and bodies again.
    var arguments: [String] {
        guard let target else { return [] }
        var words = ["--target", target]
        if let body { words += ["--body", body.rawValue] }
        if let bodyTemplate { words += ["--body-template", bodyTemplate] }
        for member in bodyMembers { words += ["--body-member", member] }
        if method != "POST" { words += ["--method", method] }
        for header in headers { words += ["-H", header] }
        if let acceptWhen { words += ["--accept-when", acceptWhen] }
        return words
    }

    /// The endpoint as a validator, or nil without --target.
    func validator(timeout: Double) throws -> HTTPTarget? {
        guard let target, let url = URL(string: target) else { return nil }
        let requestBody: RequestBody
        if let bodyTemplate {
            guard let text = FileManager.default.contents(atPath: bodyTemplate) else {
                throw CommandFailure.unreadable("cannot read the body template \(bodyTemplate)")
            }
            requestBody = .template(String(decoding: text, as: UTF8.self))
        } else {
            switch body ?? .raw {
            case .receiptData: requestBody = .receiptData(extra: try members())
            case .signedPayload: requestBody = .signedPayload
            case .raw: requestBody = .raw
            }
        }
        return HTTPTarget(
            url: url, method: method, headers: try parsedHeaders(), body: requestBody,
            acceptWhen: acceptWhen.flatMap(AcceptRule.init), timeout: timeout)
    }
}

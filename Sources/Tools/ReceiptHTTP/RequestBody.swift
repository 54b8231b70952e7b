import Foundation
import ReceiptJSON

/// The shape in which a document is posted to an endpoint (`--body`): what the endpoint takes.
package enum RequestBody: Sendable, Hashable {
    /// `{"receipt-data": "<base64>"}` as a verifyReceipt-style purchase API takes a receipt, with `extra` members
    /// (`--body-member password=…`); a JWS is sent as the value as it is.
    case receiptData(extra: [BodyMember])
    /// `{"signedPayload": "<token>"}` as the App Store posts a notification to a webhook.
    case signedPayload
    /// The file's bytes as they are.
    case raw
    /// A template's text with `{{document}}` replaced by the document as a JSON string's content (a receipt's
    /// base64, a token, a JSON body escaped) and `{{raw}}` by the file's text as it is.
    case template(String)

    /// The body for a file's bytes. A file that already is a JSON body (a notification's `{"signedPayload": …}`,
    /// a verifyReceipt request) is sent as it is for `receiptData` and `signedPayload`: the suite wrote the body.
    package func bytes(for file: [UInt8]) -> [UInt8] {
        switch self {
        case .raw: return file
        case .signedPayload:
            return Self.isJSONObject(file) ? file : holding(Self.documentText(file))
        case .receiptData(let extra):
            return Self.isJSONObject(file) ? Self.adding(extra, to: file) : holding(Self.documentText(file))
        case .template: return holding(Self.documentText(file), raw: String(decoding: file, as: UTF8.self))
        }
    }

    /// The body holding `document` (text: a receipt's base64, a token) as a JSON string's content; a raw body is the
    /// document itself.
    package func holding(_ document: String, raw: String = "") -> [UInt8] {
        let content = Self.jsonStringContent(document)
        switch self {
        case .raw: return Array(document.utf8)
        case .template(let text):
            return Array(
                text.replacingOccurrences(of: "{{document}}", with: content).replacingOccurrences(
                    of: "{{raw}}", with: raw
                ).utf8)
        case .signedPayload: return Array(#"{"signedPayload":"\#(content)"}"#.utf8)
        case .receiptData(let extra):
            var members = [#""receipt-data":"\#(content)""#]
            for member in extra { members.append("\"\(Self.jsonStringContent(member.name))\":\(member.json)") }
            return Array("{\(members.joined(separator: ","))}".utf8)
        }
    }

    /// A JSON body (a suite's verifyReceipt request) with `extra` members it does not name yet added at its end, so
    /// `--body-member password=…` reaches every request; the body as it is when it does not read as one object.
    static func adding(_ extra: [BodyMember], to file: [UInt8]) -> [UInt8] {
        guard !extra.isEmpty, let document = try? JSONDocument.read(file), document.nodes.first?.kind == .object,
            let close = file.lastIndex(of: UInt8(ascii: "}"))
        else { return file }
        let missing = extra.filter { document.member($0.name, of: document.root) == nil }
        guard !missing.isEmpty else { return file }
        let members = missing.map { "\"\(jsonStringContent($0.name))\":\($0.json)" }.joined(separator: ",")
        let isEmpty = document.children(of: document.root).isEmpty
        return Array(file[..<close]) + Array(((isEmpty ? "" : ",") + members).utf8) + Array(file[close...])
    }

    /// A document as text: a DER receipt (binary) as its base64, any other file (base64, PEM, a token) with the
    /// whitespace around it trimmed.
    package static func documentText(_ file: [UInt8]) -> String {
        if isBinary(file) {
            return Data(file).base64EncodedString()
        }
        return String(decoding: file, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether a document is sent as the base64 of its bytes: a DER receipt, or anything that is not plain text.
    package static func isBinary(_ file: [UInt8]) -> Bool {
        file.first == 0x30 || !file.allSatisfy { $0 >= 0x09 && $0 < 0x7F }
    }

    package static func isJSONObject(_ file: [UInt8]) -> Bool {
        file.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
    }

    /// `text` escaped to sit between a JSON string's quotes (by the one JSON writer).
    package static func jsonStringContent(_ text: String) -> String {
        var writer = JSONWriter(pretty: false, reservingCapacity: text.utf8.count + 16)
        writer.string(text)
        return String(decoding: writer.bytes.dropFirst().dropLast(), as: UTF8.self)
    }
}

/// A member added to a receipt-data body (`--body-member NAME=JSON`): its name and its value as JSON text.
package struct BodyMember: Sendable, Hashable {
    package var name: String
    package var json: String

    package init(name: String, json: String) {
        self.name = name
        self.json = json
    }
}

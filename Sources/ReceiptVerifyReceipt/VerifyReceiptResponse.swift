import ReceiptDiagnostics
import ReceiptJSON
import ReceiptModel
import ReceiptValidation

/// The body Apple's verifyReceipt endpoint returns for a receipt, made offline from an inspection: `status` from the
/// local verdict, `environment` from the receipt type, and the `receipt` object with Apple's keys, key order and
/// value forms (numbers Apple sends as strings are strings, flags are `"true"`/`"false"`, each date three keys).
/// `latest_receipt_info`, `latest_receipt` and `pending_renewal_info` are the server's state, which no receipt
/// holds: they are left out.
public struct VerifyReceiptResponse: Sendable {
    public var status: VerifyReceiptStatus
    /// `Production`, `Sandbox` or `Xcode`; nil when the receipt has no recognised type.
    public var environment: ReceiptEnvironment?
    /// The payload the `receipt` object is made from, when the status is 0.
    public var payload: ReceiptPayload?
    /// The time of the request: `request_date`.
    public var requestDate: AppleDate

    /// The response for `inspection`, as requested at `requestDate`.
    public init(_ inspection: Inspection, requestDate: AppleDate) {
        status = VerifyReceiptStatus(inspection)
        environment = inspection.receipt?.environmentKind
        payload = status.code == VerifyReceiptStatus.valid ? inspection.receipt?.payload : nil
        self.requestDate = requestDate
    }

    /// The response as a JSON document (newline-terminated): Apple's bytes when `pretty` is false.
    public func json(pretty: Bool) -> [UInt8] {
        JSONWriter.document(pretty: pretty) { json in write(to: &json) }
    }

    /// Writes the response object.
    public func write(to json: inout JSONWriter) {
        json.object { json in
            if let payload {
                json.key("receipt")
                json.object { json in writeReceipt(payload, to: &json) }
            }
            if let environment { json.member("environment", environment.rawValue) }
            json.member("status", status.code)
        }
    }

    private func writeReceipt(_ payload: ReceiptPayload, to json: inout JSONWriter) {
        for key in VerifyReceiptKey.receipt {
            switch key.source {
            case .requestDate:
                Self.writeDate(key.name, requestDate, to: &json)
            case .inAppRecords:
                json.key("in_app")
                json.array { json in
                    for record in payload.inAppRecords {
                        json.object { json in
                            for recordKey in VerifyReceiptKey.inApp {
                                Self.write(recordKey, record.first(recordKey.type), to: &json)
                            }
                        }
                    }
                }
            case .attribute:
                Self.write(key, payload.first(key.type), to: &json)
            }
        }
    }

    /// Writes one key in Apple's form, or nothing when the receipt has no value for it.
    static func write(_ key: VerifyReceiptKey, _ attribute: Attribute?, to json: inout JSONWriter) {
        guard let attribute else { return }
        switch (key.form, attribute.kind) {
        case (.date, .date):
            guard let date = attribute.date else { return }
            writeDate(key.name, AppleDate(date), to: &json)
        case (.number, .integer):
            json.key(named: key.name)
            json.number(attribute.integer ?? 0)
        case (.quotedNumber, .integer):
            json.key(named: key.name)
            json.string(String(attribute.integer ?? 0))
        case (.flag, .boolean), (.flag, .integer):
            json.key(named: key.name)
            json.string(attribute.integer.map { $0 != 0 } ?? attribute.boolean ?? false ? "true" : "false")
        case (.string, .text), (.quotedNumber, .text), (.number, .text):
            json.key(named: key.name)
            json.string(utf8: attribute.contentBytes)
        default:
            // Empty dates, values of another kind than Apple's: Apple leaves out a key with no value.
            return
        }
    }

    static func writeDate(_ name: String, _ date: AppleDate, to json: inout JSONWriter) {
        json.key(named: name)
        json.string(date.gmt)
        json.key(named: name, suffix: "_ms")
        json.string(date.ms)
        json.key(named: name, suffix: "_pst")
        json.string(date.pst)
    }
}

extension VerifyReceiptResponse {
    /// `bytes` read as JSON when they are a verifyReceipt response body (an object with a number `status` and no
    /// `receipt-data`; white space and a byte order mark around it allowed), nil otherwise.
    public static func readBody(_ bytes: [UInt8]) -> JSONDocument? {
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard text.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{"),
              let document = try? JSONDocument.read(text), document.nodes.first?.kind == .object,
              let status = document.member("status", of: document.root), document.nodes[status].kind == .number,
              document.member("receipt-data", of: document.root) == nil
        else { return nil }
        return document
    }
}

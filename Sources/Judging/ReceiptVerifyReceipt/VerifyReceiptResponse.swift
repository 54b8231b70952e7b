import ReceiptDiagnostics
import ReceiptJSON
import ReceiptModel
import ReceiptValidation

/// The body Apple's verifyReceipt endpoint returns for a receipt, made offline from an inspection: `status` from the
/// local verdict, `environment` from the receipt type, and the `receipt` object with Apple's keys, key order and
/// value forms (numbers Apple sends as strings are strings, flags are `"true"`/`"false"`, each date three keys).
/// `latest_receipt_info`, `latest_receipt` and `pending_renewal_info` are the server's state, which no receipt
/// holds: they are left out.
package struct VerifyReceiptResponse: Sendable {
    package var status: VerifyReceiptStatus
    /// `Production`, `Sandbox` or `Xcode`; nil when the receipt has no recognised type, or the status is not 0
    /// (Apple's failure bodies carry only `status`: production's answer to a sandbox receipt is `{"status":21007}`).
    package var environment: ReceiptEnvironment?
    /// The payload the `receipt` object is made from, when the status is 0.
    package var payload: ReceiptPayload?
    /// The time of the request: `request_date`.
    package var requestDate: AppleDate

    /// The response for `inspection`, as requested at `requestDate`.
    package init(_ inspection: ReceiptInspection, requestDate: AppleDate) {
        status = VerifyReceiptStatus(inspection)
        let isValid = status.code == VerifyReceiptStatus.valid
        environment = isValid ? inspection.receipt?.environmentKind : nil
        payload = isValid ? inspection.receipt?.payload : nil
        self.requestDate = requestDate
    }

    /// The response as a JSON document, newline-terminated: two-space indented when `pretty`, else Apple's own
    /// bytes (`AppleWireJSON`: `", "` between members, a line break before every member or element that is an
    /// object or array), as Apple's endpoint sends them.
    package func json(pretty: Bool) -> [UInt8] {
        let tree = self.tree()
        guard pretty else { return AppleWireJSON.bytes(tree) + [0x0A] }
        return JSONWriter.document(pretty: true) { json in tree.write(to: &json) }
    }

    /// The response on one line, for JSON Lines: compact JSON, or with `appleSpacing` Apple's byte layout without
    /// its line breaks (`", "` between members and elements).
    package func jsonLine(appleSpacing: Bool = false) -> [UInt8] {
        let tree = self.tree()
        guard appleSpacing else { return JSONWriter.document(pretty: false) { json in tree.write(to: &json) } }
        return AppleWireJSON.bytes(tree, lineBreaks: false) + [0x0A]
    }

    /// The response as an ordered tree: `receipt`, `status`, `environment`, as Apple's sandbox endpoint orders them
    /// (its production responses put `status` and `environment` first when server state follows `receipt`).
    package func tree() -> ResponseValue {
        var members: [(String, ResponseValue)] = []
        if let payload { members.append(("receipt", .object(receiptMembers(payload)))) }
        members.append(("status", .number(Int64(status.code))))
        if let environment { members.append(("environment", .string(environment.rawValue))) }
        return .object(members)
    }

    private func receiptMembers(_ payload: ReceiptPayload) -> [(String, ResponseValue)] {
        var members: [(String, ResponseValue)] = []
        for key in VerifyReceiptKey.receipt {
            switch key.source {
            case .requestDate:
                members += Self.dateMembers(key.name, requestDate)
            case .inAppRecords:
                let records = payload.inAppRecords.map { record -> ResponseValue in
                    .object(VerifyReceiptKey.inApp.flatMap { Self.members($0, record.first($0.type)) })
                }
                members.append(("in_app", .array(records)))
            case .attribute:
                members += Self.members(key, payload.first(key.type))
            }
        }
        return members
    }

    /// One key in Apple's form, or nothing when the receipt has no value for it.
    static func members(_ key: VerifyReceiptKey, _ attribute: Attribute?) -> [(String, ResponseValue)] {
        guard let attribute else { return [] }
        switch (key.form, attribute.kind) {
        case (.date, .date):
            guard let date = attribute.date else { return [] }
            return dateMembers(key.name, AppleDate(date))
        case (.number, .integer):
            return [(key.name, .number(attribute.integer ?? 0))]
        case (.quotedNumber, .integer):
            let number = attribute.integer ?? 0
            if number == 0 && key.leftOutWhenZero { return [] }
            return [(key.name, .string(String(number)))]
        case (.flag, .boolean), (.flag, .integer):
            let set = attribute.integer.map { $0 != 0 } ?? attribute.boolean ?? false
            return [(key.name, .string(set ? "true" : "false"))]
        case (.string, .text), (.quotedNumber, .text), (.number, .text):
            return [(key.name, .string(attribute.text ?? ""))]
        default:
            // Empty dates, values of another kind than Apple's: Apple leaves out a key with no value.
            return []
        }
    }

    package static func dateMembers(_ name: String, _ date: AppleDate) -> [(String, ResponseValue)] {
        [(name, .string(date.gmt)), (name + "_ms", .string(date.ms)), (name + "_pst", .string(date.pst))]
    }
}

/// A JSON value of a response, with its members in order.
package indirect enum ResponseValue: Sendable {
    case string(String)
    case number(Int64)
    case bool(Bool)
    case object([(String, ResponseValue)])
    case array([ResponseValue])

    var isContainer: Bool {
        switch self {
        case .object, .array: return true
        case .string, .number, .bool: return false
        }
    }

    /// Writes the value with a `JSONWriter` (pretty or compact), recursively: the tree is rcpt's own, three levels
    /// deep at most.
    package func write(to json: inout JSONWriter) {
        switch self {
        case .string(let text): json.string(text)
        case .number(let number): json.number(number)
        case .bool(let value): json.bool(value)
        case .object(let members):
            json.object { json in
                for (name, value) in members {
                    json.key(named: name)
                    value.write(to: &json)
                }
            }
        case .array(let elements):
            json.array { json in
                for element in elements { element.write(to: &json) }
            }
        }
    }
}

/// The byte layout of Apple's verifyReceipt bodies, as recorded from its servers: members and elements separated by
/// `", "`, no space after `:`, and a line break before every member or array element whose value is an object or
/// an array (`{\n"receipt":{…, \n"in_app":[\n{…}, \n{…}]}, "status":0, "environment":"Sandbox"}`). Strings are
/// escaped as `JSONWriter` escapes them.
package enum AppleWireJSON {
    /// The bytes of `value`; without `lineBreaks`, on one line (for JSON Lines).
    package static func bytes(_ value: ResponseValue, lineBreaks: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        append(value, lineBreaks: lineBreaks, to: &out)
        return out
    }

    static func append(_ value: ResponseValue, lineBreaks: Bool, to out: inout [UInt8]) {
        switch value {
        case .string, .number, .bool:
            var json = JSONWriter(pretty: false)
            value.write(to: &json)
            out += json.bytes
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, (name, member)) in members.enumerated() {
                if index > 0 { out += Array(", ".utf8) }
                if lineBreaks, member.isContainer { out.append(0x0A) }
                var key = JSONWriter(pretty: false)
                key.string(name)
                out += key.bytes + [UInt8(ascii: ":")]
                append(member, lineBreaks: lineBreaks, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out += Array(", ".utf8) }
                if lineBreaks, element.isContainer { out.append(0x0A) }
                append(element, lineBreaks: lineBreaks, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }
}

extension VerifyReceiptResponse {
    /// `bytes` read as JSON when they are a verifyReceipt response body (an object with a number `status` and no
    /// `receipt-data`; white space and a byte order mark around it allowed), nil otherwise.
    package static func readBody(_ bytes: [UInt8]) -> JSONDocument? {
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard text.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{"),
            let document = try? JSONDocument.read(text), document.nodes.first?.kind == .object,
            let status = document.member("status", of: document.root), document.nodes[status].kind == .number,
            document.member("receipt-data", of: document.root) == nil
        else { return nil }
        return document
    }
}

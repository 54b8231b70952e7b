import ReceiptDiagnostics
import ReceiptJSON

/// Why a token could not be read as a compact JWS at all (as opposed to findings about one that could).
public typealias JWSReadError = CodedError

/// One compact JWS (RFC 7515 §7.1: `header.payload.signature`, each base64url), read once: where each part is in
/// the input, the decoded header and payload as JSON documents (duplicate names, exact number text and offsets
/// kept), the signature octets, the findings about how it is encoded, and the JWS nested in its payload.
public struct JWSToken: Sendable {
    /// The three parts, in order.
    public enum Part: String, Sendable, Hashable, CaseIterable { case header, payload, signature }

    /// The compact serialization as it stands in the input.
    public var text: ArraySlice<UInt8>
    /// Where the token starts in the input file (its characters are the input's bytes from there).
    public var offset: Int { text.startIndex }
    /// Each part's characters, as file offsets.
    public var ranges: [Part: Range<Int>] = [:]
    public var headerBytes: [UInt8] = []
    public var payloadBytes: [UInt8] = []
    public var signature: [UInt8] = []
    public var header: JSONDocument?
    public var payload: JSONDocument?
    /// Findings about the encoding: base64url anomalies, JSON anomalies, header members.
    public var findings: [Finding] = []
    /// The JWS found in string values of the payload, with where they are (`data.signedTransactionInfo`).
    public var nested: [NestedJWS] = []
    /// How deep in other tokens this one is: 0 for the input's own.
    public var depth: Int

    /// The ASCII octets the signature covers: `header.payload` as they stand (RFC 7515 §5.2).
    package var signingInput: ArraySlice<UInt8> {
        guard let header = ranges[.header], let payload = ranges[.payload] else { return [] }
        return text[header.lowerBound..<payload.upperBound]
    }

    /// The header's `alg`, when it is a string.
    public var algorithm: String? { headerString("alg") }

    /// The header member `name` when it is a string.
    package func headerString(_ name: String) -> String? {
        guard let header, let node = header.member(name, of: header.root) else { return nil }
        return header.string(node)
    }

    /// The payload member `name` (top level) when it is a string.
    package func claimString(_ name: String) -> String? {
        guard let payload, let node = payload.member(name, of: payload.root) else { return nil }
        return payload.string(node)
    }

    /// The payload member `name` (top level) when it is a number, as written.
    package func claimNumberText(_ name: String) -> String? {
        guard let payload, let node = payload.member(name, of: payload.root), payload.nodes[node].kind == .number
        else { return nil }
        return payload.text(node)
    }

    /// A millisecond date claim at the top level (`signedDate`, `receiptCreationDate` …): nil when absent, else the
    /// exact reading of its number or why it is not a usable date (never "absent" when it is present, but for `null`).
    package func claimDate(_ name: String) -> Result<MillisecondDate, MillisecondDate.Problem>? {
        // A claim that is `null` is absent, as Apple's libraries read it (the claim-type check says so, a warning).
        guard let payload, let node = payload.member(name, of: payload.root), payload.nodes[node].kind != .null
        else { return nil }
        guard payload.nodes[node].kind == .number else { return .failure(.notANumber) }
        return MillisecondDate.read(payload.text(node))
    }

    /// The binding of this token's payload, held by the JSON member `member` (nil for a whole input).
    public func binding(member: String?) -> JWSBinding { JWSBinding.of(payload, member: member) }

    /// Whole milliseconds of a JSON number's text (`1697679936056.485` → 1697679936056, `1.7172432e12` →
    /// 1717243200000), when it is a non-negative date within 2^53.
    public static func milliseconds(_ text: String) -> Int64? {
        guard case .success(let date) = MillisecondDate.read(text), !date.isNegative else { return nil }
        return date.milliseconds
    }
}

/// A JWS inside JSON (a payload, a notification body, an API response): the path of the string that holds it, where
/// its characters start, and the token (whose own offsets count from the start of that string).
public struct NestedJWS: Sendable {
    /// Where the string is, e.g. `data.signedTransactionInfo` or `signedTransactions[2]`.
    public var path: String
    /// The member that holds the string (`signedTransactionInfo`, `signedTransactions` for its elements), when it
    /// is in an object or a member's array.
    package var member: String?
    /// The offset of the string's first character (after its quote) in the JSON that holds it: the input file for a
    /// body, the decoded payload for a token's nested JWS.
    public var offset: Int
    public var token: JWSToken

    package init(path: String, member: String? = nil, offset: Int, token: JWSToken) {
        self.path = path
        self.member = member
        self.offset = offset
        self.token = token
    }
}

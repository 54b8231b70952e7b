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
    public var signingInput: ArraySlice<UInt8> {
        guard let header = ranges[.header], let payload = ranges[.payload] else { return [] }
        return text[header.lowerBound..<payload.upperBound]
    }

    /// The header's `alg`, when it is a string.
    public var algorithm: String? { headerString("alg") }

    /// The header member `name` when it is a string.
    public func headerString(_ name: String) -> String? {
        guard let header, let node = header.member(name, of: header.root) else { return nil }
        return header.string(node)
    }

    /// The payload member `name` (top level) when it is a string.
    public func claimString(_ name: String) -> String? {
        guard let payload, let node = payload.member(name, of: payload.root) else { return nil }
        return payload.string(node)
    }

    /// The payload member `name` (top level) when it is a number, as written.
    public func claimNumberText(_ name: String) -> String? {
        guard let payload, let node = payload.member(name, of: payload.root), payload.nodes[node].kind == .number
        else { return nil }
        return payload.text(node)
    }

    /// A millisecond timestamp claim (`signedDate`, `purchaseDate` …) in whole milliseconds (a fraction, as Xcode
    /// writes, is dropped), when it is a number in range.
    public func claimMilliseconds(_ name: String) -> Int64? {
        claimNumberText(name).flatMap(JWSToken.milliseconds)
    }

    /// The nested JWS payloads' `data` object members, or the payload's own, when the claim is in `data` (as in a
    /// notification): `bundleId`, `environment`, `appAppleId`.
    public func claimStringHere(orInData name: String) -> String? {
        if let value = claimString(name) { return value }
        guard let payload, let data = payload.member("data", of: payload.root),
              let node = payload.member(name, of: data) else { return nil }
        return payload.string(node)
    }

    /// `appAppleId`, at the top level or in `data`, as written (a number).
    public func appAppleIdText() -> String? {
        guard let payload else { return nil }
        for object in [payload.root, payload.member("data", of: payload.root)].compactMap({ $0 }) {
            if let node = payload.member("appAppleId", of: object) { return payload.text(node) }
        }
        return nil
    }

    /// Whole milliseconds of a JSON number's text (`1697679936056.485` → 1697679936056), when it is a
    /// non-negative decimal that fits.
    public static func milliseconds(_ text: String) -> Int64? {
        let whole = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
        guard let whole, !whole.isEmpty, whole.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(whole)
    }
}

/// A JWS inside JSON (a payload, a notification body, an API response): the path of the string that holds it, where
/// its characters start, and the token (whose own offsets count from the start of that string).
public struct NestedJWS: Sendable {
    /// Where the string is, e.g. `data.signedTransactionInfo` or `signedTransactions[2]`.
    public var path: String
    /// The offset of the string's first character (after its quote) in the JSON that holds it: the input file for a
    /// body, the decoded payload for a token's nested JWS.
    public var offset: Int
    public var token: JWSToken

    public init(path: String, offset: Int, token: JWSToken) {
        self.path = path
        self.offset = offset
        self.token = token
    }
}

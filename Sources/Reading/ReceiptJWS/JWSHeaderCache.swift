import ReceiptCaching
import ReceiptJSON

/// Token headers read once per distinct text, for the whole process: every token of an App Store era carries the
/// same header (its `alg` and the same two or three x5c certificates, four kilobytes of base64url), so decoding and
/// parsing it again is most of the cost of reading a token. Only a header that read cleanly is kept — base64url
/// without anomalies, a JSON object without duplicate names or unsafe integers, no member a finding is about — so a
/// kept header carries no findings, whose offsets would depend on where the token stands. Bounded (256 headers of
/// at most `SampledBytes.largestKept` bytes), thread safe; the
/// header is a function of its text alone, so the one kept is the one reading again would give.
package enum JWSHeaderCache {
    struct Header: Sendable {
        var bytes: [UInt8]
        var document: JSONDocument
    }

    private static let headers = SharedCache<SampledBytes, Header>(capacity: 256)

    /// The header read earlier from `text`, when it read cleanly.
    static func header(_ text: ArraySlice<UInt8>) -> Header? {
        guard text.count <= SampledBytes.largestKept else { return nil }
        return headers.value(SampledBytes(Array(text)))
    }

    /// Forgets every header (tests read with a cold cache so).
    package static func removeAll() { headers.removeAll() }

    /// Keeps the header read from `text`; call only when reading it gave no finding.
    static func keep(_ text: ArraySlice<UInt8>, _ header: Header) {
        let key = SampledBytes(Array(text))
        if key.isSmallEnoughToKeep { headers.set(key, header) }
    }
}

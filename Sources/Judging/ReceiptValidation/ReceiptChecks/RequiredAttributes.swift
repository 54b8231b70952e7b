import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel

/// Types an App Store receipt always carries (a receipt without one of them is not one Apple issued), and a device
/// hash of a SHA-1 digest's 20 bytes.
struct RequiredAttributes: ReceiptCheck {
    static let types: [Int64] = [2, 3, 4, 5, 12]

    func findings(_ content: ReceiptContent) -> [Finding] {
        let payload = content.payload
        var findings: [Finding] = []
        for type in Self.types where payload.first(type) == nil {
            let name = FieldTable.descriptor(type, in: .receipt)?.name ?? "type_\(type)"
            findings.append(
                Finding(
                    .missingRequiredAttribute, at: payload.offset,
                    "the receipt has no \(name) (type \(type))"))
        }
        if let hash = payload.first(.sha1Hash) {
            let length = hash.valueBytes.count
            if length != 20 {
                findings.append(
                    Finding(
                        .hashWrongLength, at: hash.offset,
                        "sha1_hash is \(length) bytes, not the 20 of a SHA-1 digest"))
            }
        }
        return findings
    }
}

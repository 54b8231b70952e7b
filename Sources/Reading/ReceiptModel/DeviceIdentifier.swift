import ReceiptASN1

/// A device identifier as people write it: an identifierForVendor UUID (`8-4-4-4-12` uppercase hex) for 16 bytes;
/// any other length as plain uppercase hex.
package enum DeviceIdentifier {
    package static func text(_ bytes: [UInt8]) -> String {
        let hex = ASN1Primitives.hex(bytes[...]).uppercased()
        guard bytes.count == 16 else { return hex }
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}

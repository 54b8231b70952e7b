import ReceiptASN1
import ReceiptCrypto

/// Small formatting helpers shared by the text and JSON renderings of signers.
enum SignerText {
    /// A serial INTEGER's magnitude in lowercase hex without leading zero octets, like OpenSSL prints it.
    static func serialHex(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        guard range.upperBound <= bytes.count else { return "" }
        var content = bytes[range]
        let negative = (content.first ?? 0) >= 0x80
        if negative { return "-" + ASN1Primitives.hex(content) }
        while content.count > 1, content.first == 0 { content = content.dropFirst() }
        let hex = ASN1Primitives.hex(content)
        return hex.isEmpty ? "0" : hex
    }

    static func status(_ check: SignatureCheck) -> String {
        switch check {
        case .valid: return "valid"
        case .invalid: return "invalid"
        case .unsupported: return "unsupported"
        }
    }
}

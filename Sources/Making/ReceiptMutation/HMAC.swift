import Foundation
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptSigning
import ReceiptSuite

/// HMAC-SHA256 (RFC 2104), for the key-confusion mutation.
enum HMAC {
    static func sha256(key: [UInt8], message: [UInt8]) throws(CryptoError) -> [UInt8] {
        var block = key.count > 64 ? try Digest.hash(key, algorithm: .sha256) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = try Digest.hash(block.map { $0 ^ 0x36 } + message, algorithm: .sha256)
        return try Digest.hash(block.map { $0 ^ 0x5C } + inner, algorithm: .sha256)
    }
}

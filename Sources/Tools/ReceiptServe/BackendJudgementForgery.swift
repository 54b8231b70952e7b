import ReceiptASN1
import ReceiptModel
import ReceiptPKCS7

/// The forged copy of a receipt `BackendJudgement` posts after a grant made without asking the stand-in.
extension BackendJudgement {
    /// `receipt` with one character of its signed content changed — a letter or digit near the payload's middle,
    /// so that its structure and its transaction stay readable and only its signature fails: a receipt anyone can
    /// make, which a backend that does not verify grants and one that caches by the receipt's bytes has not seen.
    /// In the form it came in (DER, or base64 of it); one byte near the middle of the whole when no payload is found.
    package static func forgery(of receipt: [UInt8]) -> [UInt8] {
        guard case .success(let decoded) = InputDecoder.decode(receipt),
            let segment = SignedDataReader.read(decoded.bytes).signedData.encapsulatedContent?.segments.max(by: {
                $0.count < $1.count
            }), !segment.isEmpty
        else { return forgedByte(of: receipt) }
        var bytes = decoded.bytes
        // The middle of a run of eight letters: text inside a value (a product or bundle id), never a tag or a
        // length, so the payload still reads.
        let middle = segment.lowerBound + segment.count / 2
        func run(in range: Range<Int>) -> Int? {
            var length = 0
            for index in range {
                length = isLetter(bytes[index]) ? length + 1 : 0
                if length == 8 { return index - 4 }
            }
            return nil
        }
        guard let index = run(in: middle..<segment.upperBound) ?? run(in: segment) else {
            return forgedByte(of: receipt)
        }
        bytes[index] = replacement(for: bytes[index])
        if decoded.format == .binary { return bytes }
        return Array(Base64Codec.encode(bytes, alphabet: .standard, padded: true).utf8)
    }

    /// `receipt` with one byte near its middle changed: another letter in text, one bit otherwise.
    static func forgedByte(of receipt: [UInt8]) -> [UInt8] {
        var forged = receipt
        guard !forged.isEmpty else { return [0x30] }
        let isText = receipt.allSatisfy { $0 < 0x80 && $0 != 0 }
        let middle = forged.count / 2
        if isText,
            let index = forged[middle...].firstIndex(where: isLetterOrDigit)
                ?? forged.firstIndex(where: isLetterOrDigit)
        {
            forged[index] = replacement(for: forged[index])
        } else {
            forged[middle] ^= 0x01
        }
        return forged
    }

    package static func isLetterOrDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || isLetter(byte) }

    static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

    /// Another character of the same kind (`A`↔`B`, `y`↔`z`, `0`↔`1`), or another byte.
    package static func replacement(for byte: UInt8) -> UInt8 {
        for start in [UInt8(ascii: "0"), UInt8(ascii: "A"), UInt8(ascii: "a")]
        where byte >= start && byte - start < (start == UInt8(ascii: "0") ? 10 : 26) {
            return start + ((byte - start) ^ 1)
        }
        return byte ^ 0x01
    }
}

import Foundation
import ReceiptCrypto

/// Access to the repository's certificate corpus, located relative to this file.
enum Fixtures {
    /// The repository root: Tests/Judging/ReceiptCryptoTests/Fixtures.swift, four levels up.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The raw bytes of `Corpus/certs/<name>`.
    static func certificateBytes(_ name: String) throws -> [UInt8] {
        let url = repositoryRoot.appendingPathComponent("Corpus/certs").appendingPathComponent(name)
        return Array(try Data(contentsOf: url))
    }

    /// `Corpus/certs/<name>` decoded as one DER certificate.
    static func certificate(_ name: String) throws -> Certificate {
        try Certificate(derEncoded: certificateBytes(name))
    }

    static let appleRootFile = "AppleIncRootCertificate.cer"
    static let appleRootSubject = "CN=Apple Root CA,OU=Apple Certification Authority,O=Apple Inc.,C=US"
    static let wwdr2008File = "AppleWWDRCA-G1-2008-extracted.cer"
    static let wwdrSubject =
        "CN=Apple Worldwide Developer Relations Certification Authority,OU=Apple Worldwide Developer Relations,"
        + "O=Apple Inc.,C=US"
    static let storeKitFile = "StoreKitTestCertificate.cer"
    static let storeKitSubject = "emailAddress=StoreKit,C=US,OU=StoreKit,O=StoreKit,CN=StoreKit"

    /// 2012-01-01T00:00:00Z (`date -u -d 2012-01-01 +%s`).
    static let january2012: Int64 = 1_325_376_000
    /// 2020-01-01T00:00:00Z (`date -u -d 2020-01-01 +%s`).
    static let january2020: Int64 = 1_577_836_800
}

/// The three parts of a DER certificate, split with a minimal DER reader (tests only).
struct CertificateParts {
    /// The complete TBSCertificate element, header included: the bytes the issuer signed.
    var toBeSigned: ArraySlice<UInt8>
    /// The signatureValue BIT STRING contents without the unused-bits byte.
    var signature: ArraySlice<UInt8>

    /// Splits `der`; nil when it is not SEQUENCE { SEQUENCE, SEQUENCE, BIT STRING }.
    init?(_ der: [UInt8]) {
        guard let outer = Self.element(der, at: 0), der[outer.start - outer.headerLength] == 0x30 else {
            return nil
        }
        guard let tbs = Self.element(der, at: outer.start), let algorithm = Self.element(der, at: tbs.end),
            let bits = Self.element(der, at: algorithm.end), der[algorithm.end] == 0x03, bits.end - bits.start > 1
        else {
            return nil
        }
        toBeSigned = der[outer.start..<tbs.end]
        signature = der[(bits.start + 1)..<bits.end]
    }

    /// The element starting at `offset`: where its contents start and end, and its header length.
    private static func element(_ der: [UInt8], at offset: Int) -> (start: Int, end: Int, headerLength: Int)? {
        guard offset + 2 <= der.count else {
            return nil
        }
        let first = Int(der[offset + 1])
        var length = first
        var header = 2
        if first & 0x80 != 0 {
            let count = first & 0x7f
            guard count >= 1, count <= 4, offset + 2 + count <= der.count else {
                return nil
            }
            length = der[(offset + 2)..<(offset + 2 + count)].reduce(0) { $0 << 8 | Int($1) }
            header += count
        }
        let start = offset + header
        guard start + length <= der.count else {
            return nil
        }
        return (start, start + length, header)
    }
}

/// `bytes` with the first occurrence of `pattern` replaced by `replacement`, or nil when `pattern` does not occur.
func replacingFirst(_ pattern: [UInt8], with replacement: [UInt8], in bytes: [UInt8]) -> [UInt8]? {
    guard pattern.count <= bytes.count else {
        return nil
    }
    for start in 0...(bytes.count - pattern.count) where bytes[start..<(start + pattern.count)].elementsEqual(pattern) {
        var result = bytes
        result.replaceSubrange(start..<(start + pattern.count), with: replacement)
        return result
    }
    return nil
}

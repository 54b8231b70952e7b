import ReceiptCrypto
import Testing

/// Hex of `bytes`, for comparing digests with `openssl dgst` output.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }.joined()
}

@Suite struct DigestTests {
    /// Expected values from `printf abc | openssl dgst -<algorithm> -r`.
    static let abcVectors: [(DigestAlgorithm, String)] = [
        (.sha1, "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (.sha224, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"),
        (.sha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            .sha384,
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
        ),
        (
            .sha512,
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        ),
    ]

    @Test(arguments: abcVectors)
    func hashesAbcToKnownVector(algorithm: DigestAlgorithm, expected: String) throws {
        let digest = try Digest.hash(Array("abc".utf8), algorithm: algorithm)
        #expect(hex(digest) == expected)
        #expect(digest.count == algorithm.outputLength)
    }

    @Test func hashesEmptyInputToKnownVector() throws {
        // printf '' | openssl dgst -sha256 -r
        let expected = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        #expect(hex(try Digest.hash([UInt8](), algorithm: .sha256)) == expected)
        #expect(hex(try Digest.hash([ArraySlice<UInt8>](), algorithm: .sha256)) == expected)
        #expect(hex(try Digest.hash([[], []], algorithm: .sha256)) == expected)
    }

    @Test(arguments: DigestAlgorithm.allCases)
    func multiPartHashEqualsSinglePartHash(algorithm: DigestAlgorithm) throws {
        let message = Array("The quick brown fox jumps over the lazy dog".utf8)
        // Slices of the same array keep their original indices; empty parts must not change the result.
        let parts: [ArraySlice<UInt8>] = [message[0..<4], [], message[4..<20], message[20..<20], message[20...]]
        let whole = try Digest.hash(message, algorithm: algorithm)
        let shorter = try Digest.hash(Array(message.dropLast()), algorithm: algorithm)
        let fromParts = try Digest.hash(parts, algorithm: algorithm)
        #expect(fromParts == whole)
        #expect(fromParts != shorter)
    }

    @Test func multiPartSha1MatchesOpenSSLVector() throws {
        // printf 'The quick brown fox jumps over the lazy dog' | openssl dgst -sha1 -r
        let parts: [ArraySlice<UInt8>] = ["The quick ", "brown fox ", "jumps over the lazy dog"].map {
            Array($0.utf8)[...]
        }
        #expect(hex(try Digest.hash(parts, algorithm: .sha1)) == "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12")
    }

    @Test(arguments: [
        ("1.3.14.3.2.26", DigestAlgorithm.sha1, 20),
        ("2.16.840.1.101.3.4.2.4", .sha224, 28),
        ("2.16.840.1.101.3.4.2.1", .sha256, 32),
        ("2.16.840.1.101.3.4.2.2", .sha384, 48),
        ("2.16.840.1.101.3.4.2.3", .sha512, 64),
    ])
    func mapsDigestOIDsBothWays(oid: String, algorithm: DigestAlgorithm, length: Int) {
        #expect(DigestAlgorithm(oid: oid) == algorithm)
        #expect(algorithm.oid == oid)
        #expect(algorithm.outputLength == length)
    }

    @Test(arguments: ["1.2.840.113549.1.1.5", "", "1.3.14.3.2", "2.16.840.1.101.3.4.2.1.0", "garbage"])
    func rejectsUnknownDigestOID(oid: String) {
        #expect(DigestAlgorithm(oid: oid) == nil)
    }
}

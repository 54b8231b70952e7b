import ReceiptCrypto
import Testing

/// Attacker-controlled bytes must only ever produce a certificate or a thrown CryptoError, from any thread.
@Suite struct RobustnessTests {
    @Test(arguments: [Fixtures.appleRootFile, "AppleRootCA-G3.cer", Fixtures.storeKitFile])
    func everySingleByteMutationDecodesOrThrows(file: String) throws {
        let original = try Fixtures.certificateBytes(file)
        var decoded = 0
        for index in original.indices {
            for mask: UInt8 in [0x01, 0xff] {
                var mutated = original
                mutated[index] ^= mask
                do {
                    let certificate = try Certificate(derEncoded: mutated)
                    #expect(certificate.derEncoded == mutated)
                    #expect(certificate.sha256Fingerprint.count == 64)
                    _ = ChainVerifier.verify(leaf: certificate, intermediates: [], anchors: [certificate], at: 0)
                    decoded += 1
                } catch {
                    #expect(error.code == "certificate-decode-failed")
                }
            }
        }
        // Flips inside the signature or key bits still decode; flips in the outer header never do.
        #expect(decoded > 0)
        #expect(decoded < original.count * 2)
    }

    @Test func everyProperPrefixOfACertificateIsRejected() throws {
        let original = try Fixtures.certificateBytes(Fixtures.wwdr2008File)
        for length in 0..<original.count {
            #expect(throws: CryptoError.self) {
                try Certificate(derEncoded: original[..<length])
            }
        }
    }

    @Test func verifiesConcurrentlyWithConsistentResults() async throws {
        let root = try Fixtures.certificate(Fixtures.appleRootFile)
        let wwdr = try Fixtures.certificate(Fixtures.wwdr2008File)
        let results = await withTaskGroup(of: ChainVerification.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let time = index.isMultiple(of: 2) ? Fixtures.january2012 : Fixtures.january2020
                    return ChainVerifier.verify(leaf: wwdr, intermediates: [], anchors: [root], at: time)
                }
            }
            var collected: [ChainVerification] = []
            for await result in group {
                collected.append(result)
            }
            return collected
        }
        #expect(results.count == 64)
        #expect(results.filter(\.isValid).count == 32)
        #expect(
            results.filter { !$0.isValid }.allSatisfy {
                $0.errors == ["certificate has expired (depth 0: \(Fixtures.wwdrSubject))"]
            })
    }
}

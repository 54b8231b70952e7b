import Dispatch
import Synchronization
import Testing

@testable import ReceiptCrypto

/// A certificate keeps its key set up for verification between signatures (`VerificationContexts`): the kept
/// context changes no verdict — after a valid, a mismatched, a malformed signature or another digest, and with many
/// threads at once — and the pool stays bounded.
@Suite struct VerificationContextsTests {
    static let message: [ArraySlice<UInt8>] = [Array("TEST-ONLY signed message".utf8)[...]]

    /// One signer's certificate and key: RSA (receipts) or EC P-256 (tokens).
    static func signer(ec: Bool) throws -> (Certificate, PrivateKey) {
        let key = ec ? try PrivateKey.generateEC(curve: "P-256") : try TestPKI.shared.get().leafKey
        let certificate = try Certificate.issue(
            TestPKI.request("rcpt TEST-ONLY contexts", serial: 9, isCA: false), subjectKey: key, issuer: nil,
            issuerKey: key, digest: .sha256)
        return (certificate, key)
    }

    /// The signatures a verifier meets, in an order that leaves a context after each kind of outcome.
    static func signatures(key: PrivateKey) throws -> [(signature: [UInt8], digest: DigestAlgorithm)] {
        let valid = try Signer.sign(message, digest: .sha256, key: key)
        var flipped = valid
        flipped[flipped.count / 2] ^= 0x01
        let sha1 = try Signer.sign(message, digest: .sha1, key: key)
        return [
            (valid, .sha256), (flipped, .sha256), (valid, .sha256), ([0x30, 0x00], .sha256), (valid, .sha256),
            (Array(valid.prefix(1)), .sha256), (valid + valid, .sha256), (valid, .sha256), (sha1, .sha1),
            (valid, .sha1), (sha1, .sha1), (sha1, .sha256), (valid, .sha256), ([], .sha256), (valid, .sha256),
        ]
    }

    @Test(arguments: [false, true])
    func aKeptContextChangesNoVerdict(ec: Bool) throws {
        let (certificate, key) = try Self.signer(ec: ec)
        var valid = 0
        for (signature, digest) in try Self.signatures(key: key) {
            // A certificate decoded afresh has no kept context: what verifying with a cold one gives.
            let cold = try Certificate(derEncoded: certificate.derEncoded)
            let expected = SignatureVerifier.verify(
                signature: signature[...], over: Self.message, digest: digest, certificate: cold)
            let warm = SignatureVerifier.verify(
                signature: signature[...], over: Self.message, digest: digest, certificate: certificate)
            #expect(warm == expected)
            if warm == .valid { valid += 1 }
        }
        #expect(valid == 8)
        #expect(certificate.verificationContexts.idleCount(for: .sha256) == 1)
        #expect(certificate.verificationContexts.idleCount(for: .sha1) == 1)
    }

    @Test(arguments: [false, true])
    func concurrentVerificationsGiveEachItsOwnVerdict(ec: Bool) throws {
        let (certificate, key) = try Self.signer(ec: ec)
        let cases = try Self.signatures(key: key)
        let expected = try cases.map { signature, digest in
            SignatureVerifier.verify(
                signature: signature[...], over: Self.message, digest: digest,
                certificate: try Certificate(derEncoded: certificate.derEncoded))
        }
        let wrong = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 400) { iteration in
            let (signature, digest) = cases[iteration % cases.count]
            let verdict = SignatureVerifier.verify(
                signature: signature[...], over: Self.message, digest: digest, certificate: certificate)
            if verdict != expected[iteration % cases.count] { wrong.withLock { $0 += 1 } }
        }
        #expect(wrong.withLock { $0 } == 0)
        #expect(certificate.verificationContexts.idleCount(for: .sha256) <= VerificationContexts.capacity)
        #expect(certificate.verificationContexts.idleCount(for: .sha256) >= 1)
    }
}

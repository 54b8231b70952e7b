import Foundation
import ReceiptCrypto
import ReceiptMutation
import ReceiptSigning
import ReceiptSuite
import ReceiptTestSupport
import Testing

/// The signatures are real: the OpenSSL CLI verifies exactly the mutations that claim a valid signature, except
/// where its own parser refuses a structure around a genuine signature. And where OpenSSL's full verification
/// accepts what `rcpt verify` rejects, the gap is listed here (and in the README), and checked to stay true.
@Suite("OpenSSL CLI agrees with signatureValid")
struct OpenSSLAgreementTests {
    static let binaryMutations = MutationCatalogue.all.filter {
        $0.layer != "input" && !MutationCatalogue.storeKitOnly.contains($0.name)
    }
    .map(\.name)

    /// Genuinely signed mutations that `openssl cms -verify` refuses anyway, and why. rcpt rejects them too.
    static let refusedByOpenSSL: [String: String] = [
        "econtent-second-octet-string": "its ASN.1 templates refuse a second element inside eContent [0]",
        "encapsulated-content-second-econtent": "its ASN.1 templates refuse a third EncapsulatedContentInfo field",
        "content-info-extra-field": "its ASN.1 templates refuse a third ContentInfo field",
        "second-signed-data": "its ASN.1 templates refuse a second element inside content [0]",
        "signed-data-extra-field": "its ASN.1 templates refuse a field after signerInfos",
        "signer-info-extra-field": "its ASN.1 templates refuse a field after unsignedAttrs",
        "certificate-undecodable": "it decodes every certificate while parsing",
        "crl-undecodable": "it decodes every CRL while parsing",
        "signed-attributes-no-content-type": "ossl_cms_si_check_attributes requires contentType",
        "signed-attributes-two-message-digests": "ossl_cms_si_check_attributes allows one messageDigest",
        "signed-attributes-message-digest-two-values": "ossl_cms_si_check_attributes allows one value",
        "signed-attributes-duplicate-content-type": "ossl_cms_si_check_attributes allows one contentType",
        "signature-algorithm-pss": "it verifies RSASSA-PSS as named, and the signature is PKCS#1 v1.5",
        "signature-algorithm-ecdsa-on-rsa-key": "it refuses an ECDSA algorithm for an RSA key",
        "signature-algorithm-dsa": "it refuses a DSA algorithm for an RSA key",
        "signature-algorithm-unknown": "it cannot verify an algorithm it does not know",
        "decoy-leaf-before-genuine": "it verifies with the first certificate of the signer's issuer and serial",
    ]

    /// Mutations `rcpt verify` rejects that `openssl cms -verify -CAfile root.pem -purpose any` accepts: what a
    /// validator built on OpenSSL alone lets through.
    static let acceptedByOpenSSL: [String: String] = [
        "signature-algorithm-mismatch":
            "it hashes with the digestAlgorithm and ignores the digest the signature algorithm names",
        "signature-algorithm-md5-rsa": "it ignores the digest md5WithRSAEncryption names",
        "signed-attributes-content-type-mismatch":
            "it does not compare the contentType attribute with the eContentType",
        "signed-attributes-not-der": "it verifies unsorted signed attributes as they stand",
        "certificates-over-limit": "it has no limit on embedded certificates",
        "leaf-marker-stripped": "it knows nothing of Apple's marker extensions",
        "intermediate-marker-stripped": "it knows nothing of Apple's marker extensions",
        "decoy-intermediate-with-marker": "it knows nothing of Apple's marker extensions",
        "decoy-marked-leaf-first": "it knows nothing of Apple's marker extensions",
        "leaf-issued-by-root": "any path to the anchor will do",
        "marked-leaf-issued-by-root": "any path to the anchor will do",
        "signer-is-intermediate": "any path to the anchor will do, and a CA may sign",
        "signer-is-root": "a trusted root may sign, whatever its keyUsage",
        "signer-is-ca": "with -purpose any, a CA certificate may sign",
        "signer-key-usage-without-digital-signature": "with -purpose any, keyUsage is not checked",
        "leaf-key-1024": "the CLI checks no key size by default",
    ]

    @Test(arguments: binaryMutations)
    func opensslVerifiesExactlyTheValidlySignedMutations(_ name: String) throws {
        let mutation = try #require(MutationCatalogue.named(name))
        // Chain mutations are signed by certificates that do not chain to the test root on purpose: check the
        // signature alone for them.
        let status = try openssl(name, fullVerification: mutation.group != .chain)
        let expected = mutation.signatureValid && Self.refusedByOpenSSL[name] == nil
        #expect((status == 0) == expected, "openssl exit \(status)")
    }

    @Test(arguments: acceptedByOpenSSL.keys.sorted())
    func opensslAcceptsWhatRcptRejects(_ name: String) throws {
        let mutation = try #require(MutationCatalogue.named(name))
        #expect(mutation.expected == .reject)
        #expect(try openssl(name, fullVerification: true) == 0, "\(name): OpenSSL no longer accepts it")
    }

    @Test func everyListedMutationExists() {
        for name in Array(Self.refusedByOpenSSL.keys) + Array(Self.acceptedByOpenSSL.keys) {
            #expect(MutationCatalogue.named(name) != nil, "\(name) is not in the catalogue")
        }
    }

    /// The exit status of `openssl cms -verify` on the mutation applied to a real receipt: with the chain checked
    /// against the test root (`-purpose any`), or the signature alone.
    func openssl(_ name: String, fullVerification: Bool) throws -> Int32 {
        let kit = try #require(MutationFixtures.kit)
        let mutation = try #require(MutationCatalogue.named(name))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-openssl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let receipt = directory.appendingPathComponent("receipt.der")
        let root = directory.appendingPathComponent("root.pem")
        try Data(try mutation.apply(to: MutationFixtures.inputs[1].bytes, kit: kit, seed: 5)).write(to: receipt)
        try Data(kit.authority.root.pemEncoded.utf8).write(to: root)
        var arguments = [
            "cms", "-verify", "-binary", "-inform", "DER", "-in", receipt.path, "-out", "/dev/null",
            "-purpose", "any",
        ]
        arguments += fullVerification ? ["-CAfile", root.path] : ["-noverify"]
        return try run("/usr/bin/openssl", arguments)
    }

    func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

import Foundation
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJWS
import ReceiptMutation
import ReceiptSigning
import ReceiptSuite
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// Every JWS mutation gets the verdict its catalogue entry promises from `rcpt verify`, for the finding it names, on
/// a transaction and on a real Apple notification; and the OpenSSL CLI agrees on every raw signature verdict.
@Suite("JWS mutations")
struct JWSMutationTests {
    static let kit: MutationKit? = TestReceipts.jwsAuthorities("jws mutations").map {
        MutationKit(
            authority: $0.own, foreign: $0.foreign,
            deviceID: Expectations.parseDeviceID(MutationKit.defaultDeviceID) ?? [])
    }

    /// A server's transaction, a real notification, and StoreKit's app transaction (with the device verification
    /// and app version a device's token carries).
    static let inputs = [
        "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws",
        "Corpus/jws/gopay-notif-CONSUMPTION_REQUEST-production.jws",
        "Corpus/jws/apple-swift-xcode-xcode-signed-app-transaction.jws",
    ]
    static let names = JWSMutationCatalogue.all.map(\.name)

    @Test func theCatalogueHasAtLeastThirtyNamedEntries() {
        #expect(JWSMutationCatalogue.all.count >= 30)
        #expect(Set(Self.names).count == Self.names.count)
        #expect(JWSMutationCatalogue.all.contains { $0.expected == .accept && $0.name != "baseline" })
    }

    @Test(arguments: names)
    func verifyGivesTheExpectedVerdictAndFinding(_ name: String) throws {
        let kit = try #require(Self.kit)
        let mutation = try #require(JWSMutationCatalogue.named(name))
        for input in Self.inputs {
            let source = Fixtures.bytes(input)
            // Judged as a suite's validators are told to judge: the baseline's app, version and device.
            let expectations = try JWSMutationContext.baseline(of: source, kit: kit).expectations
            let bytes: [UInt8]
            do {
                bytes = try mutation.apply(to: source, kit: kit)
            } catch {
                // A mutation of a claim the input does not carry (a transactionId in a notification) is skipped.
                #expect(error.code == "not-applicable", "\(name) on \(input): \(error.message)")
                continue
            }
            let options = InspectionOptions(
                anchors: TrustAnchors([kit.authority.root]), time: .signed,
                expectations: expectations, now: 1_800_000_000)
            let inspection = Inspection(JWSInspector.inspect(bytes, options: options))
            #expect(
                inspection.isValid == (mutation.expected == .accept), "\(name) on \(input): \(inspection.codes(.error))"
            )
            if let finding = mutation.finding {
                let codes = (inspection.readError.map { [$0.code] } ?? []) + inspection.findings.map(\.code)
                #expect(codes.contains(finding), "\(name) on \(input): \(codes)")
            }
        }
    }

    /// A genuine document of another app states that app wherever the document says which app it is: a
    /// notification's `data` and the transaction it carries (a trial's server that took the app from the document
    /// passed every security entry of a notification's suite). A replay anyone can make: gated as security.
    @Test func anotherAppsDocumentNamesItEverywhere() throws {
        let kit = try #require(Self.kit)
        let mutation = try #require(JWSMutationCatalogue.named("bundle-id-other-app"))
        let bytes = try mutation.apply(to: Fixtures.bytes(Self.inputs[1]), kit: kit)
        let inspection = JWSInspector.inspect(
            bytes, options: InspectionOptions(anchors: TrustAnchors([kit.authority.root]), time: .signed))
        let token = try #require(inspection.tokens.first)
        #expect(token.binding.bundleID?.text == "com.example.attacker")
        #expect(!token.nested.isEmpty)
        for nested in token.nested where nested.binding.carriesBundleID {
            #expect(nested.binding.bundleID?.text == "com.example.attacker", "\(nested.path)")
        }
        #expect(inspection.isValid, "signed again by the test CA: \(Inspection(inspection).codes(.error))")
        #expect(mutation.threat.attacker == .replay && mutation.threat.concern == .security)
    }

    /// For every mutation whose signature is a 64-octet r ‖ s, `openssl dgst -verify` with the x5c leaf's key
    /// reaches the verdict rcpt reaches on the signature, and that verdict is the catalogue's `signatureValid`.
    @Test(arguments: names)
    func opensslAgreesOnTheSignature(_ name: String) throws {
        let kit = try #require(Self.kit)
        let mutation = try #require(JWSMutationCatalogue.named(name))
        // The first input the mutation applies to (a device's token for the device-bound ones).
        guard let bytes = Self.inputs.lazy.compactMap({ try? mutation.apply(to: Fixtures.bytes($0), kit: kit) }).first
        else {
            Issue.record("\(name) applies to none of the inputs")
            return
        }
        guard case .success(let input) = JWSInput.read(bytes), let token = input.tokens.first?.token else {
            #expect(mutation.expected == .reject, "\(name) does not read")
            return
        }
        let verification = JWSInspector.inspect(
            bytes,
            options: InspectionOptions(
                anchors: TrustAnchors([kit.authority.root]), time: .signed, now: 1_800_000_000)
        ).tokens.first
        let oursValid = verification?.signature == .valid
        guard token.signature.count == 64, let der = ECDSASignature.der(fromRaw: token.signature),
            let leaf = verification?.signer, token.algorithm == "ES256"
        else {
            #expect(!oursValid || token.algorithm == "ES256", "\(name)")
            return
        }
        let theirsValid = try Self.openssl(der: der, input: Array(token.signingInput), leaf: leaf)
        #expect(oursValid == theirsValid, "\(name): rcpt \(oursValid), openssl \(theirsValid)")
        if mutation.expected == .accept || mutation.signatureValid {
            #expect(theirsValid == mutation.signatureValid, "\(name)")
        }
    }

    static func openssl(der: [UInt8], input: [UInt8], leaf: Certificate) throws -> Bool {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-jws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data(leaf.pemEncoded.utf8).write(to: scratch.appendingPathComponent("leaf.pem"))
        try Data(der).write(to: scratch.appendingPathComponent("sig.der"))
        try Data(input).write(to: scratch.appendingPathComponent("input"))
        let key = try run(["x509", "-in", "leaf.pem", "-pubkey", "-noout", "-out", "key.pem"], in: scratch)
        #expect(key == 0)
        return try run(["dgst", "-sha256", "-verify", "key.pem", "-signature", "sig.der", "input"], in: scratch) == 0
    }

    static func run(_ arguments: [String], in directory: URL) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

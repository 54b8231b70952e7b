import Foundation
import ReceiptCrypto
import ReceiptMutation
import ReceiptSigning
import ReceiptTestSupport
import Testing

/// The signatures are real: the OpenSSL CLI verifies exactly the mutations that claim a valid signature.
@Suite("OpenSSL CLI agrees with signatureValid")
struct OpenSSLAgreementTests {
    static let binaryMutations = MutationCatalogue.all.filter { $0.layer != "input" }.map(\.name)

    @Test(arguments: binaryMutations)
    func opensslVerifiesExactlyTheValidlySignedMutations(_ name: String) throws {
        let kit = try #require(MutationFixtures.kit)
        let mutation = try #require(MutationCatalogue.named(name))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-openssl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let receipt = directory.appendingPathComponent("receipt.der")
        let root = directory.appendingPathComponent("root.pem")
        try Data(try mutation.apply(to: MutationFixtures.inputs[1].bytes, kit: kit, seed: 5)).write(to: receipt)
        try Data(kit.authority.root.pemEncoded.utf8).write(to: root)
        // Chain mutations are signed by certificates that do not chain to the test root on purpose: check the
        // signature alone for them.
        var arguments = ["cms", "-verify", "-binary", "-inform", "DER", "-in", receipt.path, "-out", "/dev/null",
                         "-purpose", "any"]
        arguments += mutation.group == .chain ? ["-noverify"] : ["-CAfile", root.path]
        let status = try run("/usr/bin/openssl", arguments)
        #expect((status == 0) == mutation.signatureValid, "openssl exit \(status)")
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

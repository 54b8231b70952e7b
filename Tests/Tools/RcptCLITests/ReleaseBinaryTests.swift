import Foundation
import ReceiptTestSupport
import Testing

/// The binary `scripts/release.sh` makes (scripts/test.sh builds it and names it in RCPT_RELEASE_BINARY) needs no
/// Swift runtime: ldd lists no Swift, Foundation or ICU library, and it verifies a real receipt and a real JWS when
/// copied elsewhere and run with an empty environment (no toolchain on PATH) from another directory.
@Suite(
    "The relocatable release binary",
    .enabled(
        if: ProcessInfo.processInfo.environment["RCPT_RELEASE_BINARY"] != nil,
        "scripts/test.sh builds it and sets RCPT_RELEASE_BINARY"))
struct ReleaseBinaryTests {
    static var binary: String { ProcessInfo.processInfo.environment["RCPT_RELEASE_BINARY"] ?? "" }

    /// Runs `executable` with `arguments` in `directory` with nothing in its environment.
    static func run(_ executable: String, _ arguments: [String], in directory: URL) throws -> (Int32, String) {
        try CLI.process("/usr/bin/env", ["-i", executable] + arguments, in: directory)
    }

    @Test func linksNoSwiftRuntime() throws {
        let (status, libraries) = try Self.run("/usr/bin/ldd", [Self.binary], in: URL(fileURLWithPath: "/"))
        #expect(status == 0)
        #expect(libraries.contains("libssl.so.3") && libraries.contains("libcrypto.so.3"))
        // Foundation's networking, linked in statically, calls the system's libcurl (`--target`).
        #expect(libraries.contains("libcurl.so.4"))
        for forbidden in ["libswift", "libFoundation", "libdispatch", "libBlocksRuntime", "libicu", "/opt/swift"] {
            #expect(!libraries.contains(forbidden), "\(forbidden) in \(libraries)")
        }
    }

    @Test func verifiesARealReceiptAndARealJWSFromElsewhereWithNoEnvironment() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-release-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("rcpt")
        // Copied by cp, not by this process: a file this process held open for writing could be inherited by a
        // child another test forks meanwhile, and executing it would then fail with ETXTBSY ("Text file busy").
        let copied = try Self.run("/bin/cp", [Self.binary, copy.path], in: directory)
        #expect(copied.0 == 0, "\(copied.1)")
        try FileManager.default.copyItem(
            at: Fixtures.url("Corpus/receipts/\(Fixtures.sandboxReceipt)"),
            to: directory.appendingPathComponent("sandbox.receipt"))
        try FileManager.default.copyItem(
            at: Fixtures.url("Corpus/jws/gopay-txn-2000000184445477-sandbox.jws"),
            to: directory.appendingPathComponent("transaction.jws"))
        let receipt = try Self.run(copy.path, ["verify", "sandbox.receipt"], in: directory)
        #expect(receipt.0 == 0, "\(receipt.1)")
        #expect(receipt.1.hasPrefix("valid sandbox.receipt"))
        let jws = try Self.run(copy.path, ["verify", "transaction.jws"], in: directory)
        #expect(jws.0 == 0, "\(jws.1)")
        #expect(jws.1.hasPrefix("valid transaction.jws"))
        let status = try Self.run(
            copy.path, ["status", "--at", "2022-10-24T12:52:00Z", "transaction.jws"], in: directory)
        #expect(status.0 == 0, "\(status.1)")
        #expect(status.1.contains("ACTIVE"))
    }
}

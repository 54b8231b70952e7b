import Foundation
import ReceiptTestSupport
import Testing

/// The CLI's output for a few receipts, byte for byte. Regenerate with RCPT_UPDATE_GOLDEN=1 after a deliberate
/// change, and review the diff.
@Suite("Golden CLI output")
struct GoldenOutputTests {
    static let storeKitRoot = "Corpus/certs/StoreKitTestCertificate.cer"

    static let cases: [(golden: String, arguments: [String])] = [
        ("dump-sandbox.txt", ["dump", "Corpus/receipts/kvitto-sandboxReceipt.receipt"]),
        ("dump-sandbox.json", ["dump", "--format", "json", "Corpus/receipts/kvitto-sandboxReceipt.receipt"]),
        ("dump-xcode.txt", ["dump", "--root", storeKitRoot, "Corpus/receipts/apple-xcode-app-receipt-with-transaction.receipt"]),
        ("dump-xcode.json", ["dump", "--root", storeKitRoot, "--format", "json",
                             "Corpus/receipts/apple-xcode-app-receipt-with-transaction.receipt"]),
        ("verify-sandbox.txt", ["verify", "--verbose", "Corpus/receipts/kvitto-sandboxReceipt.receipt"]),
        ("verify-xcode-untrusted.json", ["verify", "--format", "json",
                                         "Corpus/receipts/apple-xcode-app-receipt-with-transaction.receipt"]),
        ("help.txt", ["--help"]),
        ("help-dump.txt", ["dump", "--help"]),
        ("help-verify.txt", ["verify", "--help"]),
    ]

    @Test(arguments: cases)
    func matchesGoldenOutput(_ golden: String, _ arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        CLI.expectGolden(result.stdout, golden)
    }
}

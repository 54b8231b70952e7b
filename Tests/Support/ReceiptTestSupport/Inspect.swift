import FoundationEssentials
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptSigning
import ReceiptValidation

/// Shorthands for inspecting receipts against the Apple root, the StoreKit certificate or the test CA.
package enum Inspect {
    package static func apple(
        _ bytes: [UInt8], time: EvaluationTime = .signed,
        expectations: Expectations = Expectations()
    ) throws -> ReceiptInspection {
        ReceiptInspector.inspect(
            bytes,
            options: InspectionOptions(
                anchors: try TrustAnchors.appleRoot(), time: time,
                expectations: expectations))
    }

    package static func storeKit(_ bytes: [UInt8]) throws -> ReceiptInspection {
        let anchors = try TrustAnchors.load(files: [Fixtures.url("Corpus/certs/StoreKitTestCertificate.cer").path])
        return ReceiptInspector.inspect(bytes, options: InspectionOptions(anchors: anchors))
    }

    package static func testCA(
        _ bytes: [UInt8], time: EvaluationTime = .signed,
        expectations: Expectations = Expectations()
    ) throws -> ReceiptInspection {
        guard let root = TestReceipts.authority?.root else {
            throw CryptoError(.caUnreadable, message: "no test CA")
        }
        return ReceiptInspector.inspect(
            bytes,
            options: InspectionOptions(
                anchors: TrustAnchors([root]), time: time,
                expectations: expectations))
    }

    /// Whether the inspection has a finding with `code`.
    package static func has(_ inspection: ReceiptInspection, _ code: String) -> Bool {
        inspection.findings.contains { $0.code == code }
    }

    /// The codes of the inspection's findings, for readable failure messages.
    package static func codes(_ inspection: ReceiptInspection) -> [String] { inspection.findings.map(\.code) }

    /// The error-level findings' codes, and the read error's code when reading stopped.
    package static func errors(_ inspection: ReceiptInspection) -> [String] {
        inspection.findings.filter { $0.severity == .error }.map(\.code)
            + [inspection.readError?.code].compactMap { $0 }
    }
}

import Foundation
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJWS
import ReceiptSigning
import ReceiptTestSupport
import ReceiptValidation

/// TEST-ONLY JWS chains (Apple-shaped, EC) made once per test process, and tokens signed with them.
enum JWSFixtures {
    static let authority: TestCertificateAuthority? = try? TestCertificateAuthority.generate(
        shape: .jws, notBefore: TestReceipts.longAgo, notAfter: TestReceipts.farFuture, label: "rcpt jws tests")
    static let foreign: TestCertificateAuthority? = try? TestCertificateAuthority.generate(
        shape: .jws, notBefore: TestReceipts.longAgo, notAfter: TestReceipts.farFuture, label: "foreign jws tests")

    /// 2024-06-01T12:00:00Z, in milliseconds.
    static let signedDate: Int64 = 1_717_243_200_000

    static func signer(_ authority: TestCertificateAuthority? = authority) throws -> JWSSigner {
        guard let authority else { throw CryptoError(.keyGenerationFailed, message: "no JWS test CA") }
        return JWSSigner(authority: authority)
    }

    static func transaction(bundleId: String = "com.example.app", extra: String = "") -> String {
        #"{"transactionId":"2000000000000001","originalTransactionId":"2000000000000001","bundleId":"\#(bundleId)","#
            + #""productId":"com.example.app.monthly","purchaseDate":1717243100000,"quantity":1,"#
            + #""type":"Auto-Renewable Subscription","signedDate":\#(signedDate),"environment":"Sandbox"\#(extra)}"#
    }

    static func options(
        anchors: [TestCertificateAuthority?] = [authority], time: EvaluationTime = .signed,
        expectations: Expectations = Expectations()
    ) -> InspectionOptions {
        InspectionOptions(
            anchors: TrustAnchors(anchors.compactMap { $0?.root }), time: time,
            expectations: expectations, now: 1_800_000_000)
    }

    static func inspect(_ text: String, options: InspectionOptions = options()) -> JWSInspection {
        JWSInspector.inspect(Array(text.utf8), options: options)
    }

    static func codes(_ inspection: JWSInspection) -> [String] {
        inspection.tokens.flatMap { $0.findings.map(\.code) }
    }
}

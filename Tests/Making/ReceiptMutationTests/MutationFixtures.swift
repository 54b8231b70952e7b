import Foundation
import ReceiptBuilding
import ReceiptCrypto
import ReceiptModel
import ReceiptMutation
import ReceiptSigning
import ReceiptTestSupport
import ReceiptValidation

/// The kit and inputs every mutation test uses, made once per test process.
enum MutationFixtures {
    static let kit: MutationKit? = {
        guard let authority = TestReceipts.authority, let foreign = TestReceipts.foreignAuthority,
            let device = Expectations.parseDeviceID(MutationKit.defaultDeviceID)
        else { return nil }
        return MutationKit(authority: authority, foreign: foreign, deviceID: device)
    }()

    /// Inputs of every shape: a synthetic DER receipt, a real App Store receipt, Xcode's BER receipt.
    static let inputs: [(name: String, bytes: [UInt8])] = [
        ("synthetic", (try? TestReceipts.signed(SyntheticReceipt(records: 2))) ?? []),
        (Fixtures.sandboxReceipt, Fixtures.realReceipt(Fixtures.sandboxReceipt)),
        (Fixtures.xcodeReceipt, Fixtures.realReceipt(Fixtures.xcodeReceipt)),
    ]

    /// Inspects a mutated receipt the way `rcpt verify` does with the suite's expectations.
    static func verify(_ bytes: [UInt8], baseline: [UInt8], kit: MutationKit) -> ReceiptInspection {
        let receipt = Receipt.read(InputDecoder.decode(baseline).map(\.bytes).get(or: baseline))
        var expectations = Expectations(deviceID: kit.deviceID)
        if case .text(let bundle)? = receipt.first(2)?.value { expectations.bundleID = bundle }
        if case .text(let version)? = receipt.first(3)?.value { expectations.appVersion = version }
        return ReceiptInspector.inspect(
            bytes,
            options: InspectionOptions(
                anchors: TrustAnchors([kit.authority.root]),
                expectations: expectations))
    }
}

extension Result {
    func get(or fallback: Success) -> Success { (try? get()) ?? fallback }
}

import Foundation
import ReceiptTestSupport
import Testing

/// A verdict bound to no app says so: without --bundle-id (and, in Production, --app-apple-id) only the signature
/// and chain were judged, and any app's genuine document replayed passes; --require-binding makes that an error.
@Suite("What a verdict is bound to")
struct BindingCLITests {
    static let sandboxToken = "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws"
    static let productionToken = "Corpus/jws/gopay-txn-510001261072921-production.jws"
    static let receipt = "Corpus/receipts/kvitto-sandboxReceipt.receipt"

    static func binding(_ arguments: [String]) throws -> [String: Any] {
        let run = try CLI.run(["verify", "--format", "json"] + arguments)
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
        return try #require(report["binding"] as? [String: Any])
    }

    @Test func anUnboundVerdictSaysWhatWasNotChecked() throws {
        for (file, document) in [(Self.sandboxToken, "token"), (Self.receipt, "receipt")] {
            let text = try CLI.run(["verify", file])
            #expect(text.status == 0)
            #expect(
                text.stdout.contains(
                    "not bound to an app: only the signature and chain were judged, and any app's genuine \(document) passes them — pass --bundle-id"
                ),
                "\(text.stdout)")
            let binding = try Self.binding([file])
            #expect(binding["bound"] as? Bool == false)
            #expect(binding["missing"] as? [String] == ["--bundle-id"])
            #expect((binding["unchecked"] as? [String])?.contains("bundle id") == true)
        }
        let batch = try CLI.run(["verify", Self.sandboxToken, Self.receipt])
        #expect(batch.status == 0)
        #expect(
            batch.stdout.contains("valid \(Self.receipt) (not bound to an app: pass --bundle-id)"), "\(batch.stdout)")
    }

    @Test func aBoundVerdictNamesWhatItWasBoundTo() throws {
        let text = try CLI.run(["verify", "--bundle-id", "Com.VoiceRecording.Telephone", Self.sandboxToken])
        #expect(text.status == 0)
        #expect(
            text.stdout.contains(
                "checked against the expected bundle id; not checked: app Apple id, app version, device, environment"),
            "\(text.stdout)")
        let binding = try Self.binding(["--bundle-id", "Com.VoiceRecording.Telephone", Self.sandboxToken])
        #expect(binding["bound"] as? Bool == true)
        #expect(binding["checked"] as? [String] == ["bundle id"])
        #expect(binding["missing"] as? [String] == [])
        let batch = try CLI.run([
            "verify", "--bundle-id", "Com.VoiceRecording.Telephone", Self.sandboxToken, Self.sandboxToken,
        ])
        #expect(!batch.stdout.contains("not bound"))
    }

    /// An app's Apple id is a number: leading zeros name the same app (a red team's trial: 0690661663 was "a
    /// mismatch" with app_item_id 690661663).
    @Test func anAppAppleIDWithLeadingZerosIsTheSameNumber() throws {
        let receipt = "Corpus/receipts/kvitto-receipt.receipt"
        let padded = try CLI.run([
            "verify", "--bundle-id", "com.apple.dt.Xcode", "--app-apple-id", "0497799835", receipt,
        ])
        #expect(padded.status == 0, "\(padded.stdout)")
        let other = try CLI.run(["verify", "--bundle-id", "com.apple.dt.Xcode", "--app-apple-id", "497799836", receipt])
        #expect(other.status == 1)
    }

    /// Apple's verifier is configured for Production only with the app's Apple id: a bundle id alone does not bind a
    /// Production document.
    @Test func aProductionDocumentNeedsTheAppAppleIDToo() throws {
        let binding = try Self.binding(["--bundle-id", "com.jrjj.keysns", Self.productionToken])
        #expect(binding["bound"] as? Bool == false)
        #expect(binding["missing"] as? [String] == ["--app-apple-id"])
        let bound = try Self.binding(["--bundle-id", "com.jrjj.keysns", "--app-apple-id", "1234", Self.productionToken])
        #expect(bound["bound"] as? Bool == true)
    }

    @Test func requireBindingMakesAnUnboundCheckAnError() throws {
        let unbound = try CLI.run(["verify", "--require-binding", Self.sandboxToken])
        #expect(unbound.status == 1)
        #expect(unbound.stdout.contains("binding-required"), "\(unbound.stdout)")
        let receipt = try CLI.run(["verify", "--require-binding", Self.receipt])
        #expect(receipt.status == 1)
        #expect(receipt.stdout.contains("binding-required"))
        let production = try CLI.run([
            "verify", "--require-binding", "--bundle-id", "com.jrjj.keysns", Self.productionToken,
        ])
        #expect(production.status == 1)
        // Bound to the app, not to an environment: this app's Sandbox tokens would pass a Production gate.
        let noEnvironment = try CLI.run([
            "verify", "--require-binding", "--bundle-id", "Com.VoiceRecording.Telephone", Self.sandboxToken,
        ])
        #expect(noEnvironment.status == 1)
        #expect(noEnvironment.stdout.contains("pass --environment"), "\(noEnvironment.stdout)")
        let bound = try CLI.run([
            "verify", "--require-binding", "--bundle-id", "Com.VoiceRecording.Telephone", "--environment", "Sandbox",
            Self.sandboxToken,
        ])
        #expect(bound.status == 0, "\(bound.stdout)")
        // A CI report reproduces the run with the flag.
        let junit = try CLI.run(["verify", "--format", "junit", "--require-binding", Self.sandboxToken, Self.receipt])
        #expect(junit.status == 1)
        #expect(junit.stdout.contains("--require-binding"))
    }
}

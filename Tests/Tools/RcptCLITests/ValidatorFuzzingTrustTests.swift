import Foundation
import ReceiptTestSupport
import Testing

/// Validator fuzzing a reviewer can trust: each seed's inputs judged by that seed's own expectations, type changes
/// in the catalogue, crashes and hangs grouped by their cause, first-hit figures, and no false alarm on what Apple
/// tells validators to ignore (unless --strict).
@Suite("Validator fuzzing a reviewer can trust")
struct ValidatorFuzzingTrustTests {
    static let device = "0EE7C0DE-0000-4000-8000-00000000BEEF"
    static var validators: String { Fixtures.url("Tests/Tools/RcptCLITests/Validators").path }

    static let ca: String? = {
        let ca = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-trust-\(UUID().uuidString)/ca")
            .path
        return (try? CLI.run(["ca", "init", ca]))?.status == 0 ? ca : nil
    }()

    @Test func twoSeedsOfDifferentAppsAreEachJudgedByTheirOwnExpectations() throws {
        let ca = try #require(Self.ca)
        let validator =
            "sh \(Self.validators)/two_apps.sh \(CLI.executable.path) \(ca)/root.pem \(Self.device) "
            + "'com.cocoanetics.EmmiView:246 com.revenuecat.sampleapp:4' {}"
        let run = try CLI.run([
            "fuzz-validator", "--ca", ca, "--validator", validator, "--runs", "160", "--jobs", "2",
            "--format", "json", "Corpus/receipts/kvitto-sandboxReceipt.receipt",
            "Corpus/receipts/revenuecat-receiptsample1.receipt",
        ])
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any], "\(run)")
        #expect(run.status == 0, "\(report["groups"] ?? "")")
        #expect(report["agreed"] as? Int == 160)
        #expect((report["baselines"] as? [Any])?.count == 2)
        #expect(run.stderr.contains("com.revenuecat.sampleapp --app-version 4"))
    }

    @Test func aValidatorThatCrashesOnATypeChangeIsCaughtByConformance() throws {
        let ca = try #require(Self.ca)
        let suite = (ca as NSString).deletingLastPathComponent + "/suite"
        let made = try CLI.run([
            "mutate", "Corpus/receipts/kvitto-sandboxReceipt.receipt", "--all", "--ca", ca, "--out-dir", suite,
        ])
        #expect(made.status == 0)
        let validator =
            "sh \(Self.validators)/crash_on_type_change.sh \(CLI.executable.path) \(ca)/root.pem "
            + "com.cocoanetics.EmmiView 246 \(Self.device) {}"
        let run = try CLI.run(["conformance", "--format", "json", "--validator", validator, suite])
        #expect(run.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
        let crashed = Set(((report["classes"] as? [String: Any])?["crashed"] as? [String]) ?? [])
        // The type changes of the catalogue (two older entries among them: bundle-id-ia5string and
        // duplicate-transaction-id-as-integer).
        let typeChanges = [
            "bundle-id-ia5string", "bundle-id-as-integer", "duplicate-transaction-id-as-integer",
            "app-version-as-integer", "creation-date-as-utf8string",
            "creation-date-as-integer", "original-app-version-as-octets", "quantity-as-utf8string",
            "quantity-as-octet-string", "quantity-as-set", "product-id-as-integer",
            "transaction-id-as-integer", "purchase-date-as-integer", "expires-date-as-integer",
            "expires-date-as-utf8string", "cancellation-date-as-boolean", "trial-flag-as-boolean",
            "web-order-line-item-as-utf8string",
        ]
        #expect(Set(typeChanges).isSubset(of: crashed), "not crashed: \(Set(typeChanges).subtracting(crashed))")
        // Nothing else crashed it: every other entry is judged as rcpt judges it.
        #expect(crashed.subtracting(typeChanges).isEmpty, "\(crashed.subtracting(typeChanges))")
    }

    @Test func aHangIsOneGroupNamedByItsCauseWithItsFirstHit() throws {
        let ca = try #require(Self.ca)
        let run = try CLI.run([
            "fuzz-validator", "--ca", ca, "--runs", "120", "--jobs", "2", "--timeout", "20",
            "--format", "json", "--validator",
            "sh \(Self.validators)/hang_on_deep_nesting.sh \(CLI.executable.path) \(ca)/root.pem com.cocoanetics.EmmiView 246 \(Self.device) {}",
            "Corpus/receipts/kvitto-sandboxReceipt.receipt",
        ])
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any], "\(run)")
        let groups = (report["groups"] as? [[String: Any]]) ?? []
        #expect(groups.count == 1, "\(groups.map { $0["code"] ?? "" })")
        let group = try #require(groups.first)
        #expect(group["kind"] as? String == "timed-out")
        #expect((group["code"] as? String)?.hasPrefix("payload:nesting") == true)
        #expect((group["code"] as? String)?.hasSuffix("(timeout)") == true)
        #expect((group["firstInput"] as? Int ?? 0) >= 1)
        #expect((group["firstSeconds"] as? Double ?? -1) >= 0)
    }

    /// A careful validator that ignores malformed values in the types Apple does not document (rcpt verify's default
    /// judgement is one) has no disagreement by default; under --strict, exactly those come back.
    @Test func aCarefulValidatorHasNoFalseAlarmOnUndocumentedTypesUnlessStrict() throws {
        let ca = try #require(Self.ca)
        let careful =
            "\(CLI.executable.path) verify --root \(ca)/root.pem --bundle-id com.cocoanetics.EmmiView "
            + "--app-version 246 --device-id \(Self.device) {} >/dev/null"
        func groups(_ extra: [String]) throws -> [String] {
            let run = try CLI.run(
                [
                    "fuzz-validator", "--ca", ca, "--validator", careful, "--runs", "80", "--jobs", "2",
                    "--format", "json",
                ] + extra + ["Corpus/receipts/kvitto-sandboxReceipt.receipt"])
            let report = try #require(
                try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any], "\(run)")
            return ((report["groups"] as? [[String: Any]]) ?? []).compactMap { $0["code"] as? String }
        }
        #expect(try groups([]).isEmpty)
        let strict = try groups(["--strict"])
        #expect(!strict.isEmpty)
        #expect(strict.allSatisfy { $0.hasPrefix("value-") }, "\(strict)")
    }

    @Test func whatAppleTellsValidatorsToIgnoreIsAWarningUnlessStrict() throws {
        let ca = try #require(Self.ca)
        let jwsCA = (ca as NSString).deletingLastPathComponent + "/jws-ca"
        #expect(try CLI.run(["ca", "init", "--shape", "jws", jwsCA]).status == 0)
        let directory = (ca as NSString).deletingLastPathComponent
        for (name, seed, kit) in [
            ("undocumented-type-invalid-utf8", "Corpus/receipts/kvitto-sandboxReceipt.receipt", ca),
            ("undocumented-type-invalid-date", "Corpus/receipts/kvitto-sandboxReceipt.receipt", ca),
            ("revocation-date-null", "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws", jwsCA),
        ] {
            let out = directory + "/" + name
            let made = try CLI.run(["mutate", seed, "--mutation", name, "--ca", kit, "-o", out])
            #expect(made.status == 0, "\(name): \(made)")
            let lenient = try CLI.run(["verify", "--root", kit + "/root.pem", "--format", "json", out])
            #expect(lenient.status == 0, "\(name): \(lenient.stdout.prefix(600))")
            #expect(lenient.stdout.contains("\"ignorable\""), "\(name)")
            let strict = try CLI.run(["verify", "--strict", "--root", kit + "/root.pem", out])
            #expect(strict.status == 1, "\(name): \(strict.stdout.prefix(400))")
        }
    }
}

import ReceiptDiff
import ReceiptMutation
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// For every single-field mutation in the catalogue, the diff against the baseline reports that change and nothing
/// else (with `--only receipt`, since re-signing changes the signature too).
@Suite("Diffing the mutation catalogue")
struct CatalogueDiffTests {
    /// Mutation → the fields it changes: `type=N` for a top-level attribute, `in_app.<field>` for a record field.
    static let singleField: [(String, Set<String>)] = [
        ("wrong-app-version", ["type=3"]),
        ("hash-zero", ["type=5"]),
        ("hash-wrong-length", ["type=5"]),
        ("hash-for-other-device", ["type=5"]),
        ("hash-over-bundle-text", ["type=5"]),
        ("other-bundle-id", ["type=2", "type=5"]),  // the device hash covers the bundle id
        ("bundle-id-uppercase", ["type=2", "type=5"]),
        ("bundle-id-homoglyph", ["type=2", "type=5"]),
        ("environment-production", ["type=0"]),
        ("creation-in-future", ["type=12"]),
        ("creation-before-original-purchase", ["type=18"]),
        ("receipt-expired", ["type=21"]),
        ("product-type-out-of-range", ["in_app.product_type"]),
        ("quantity-zero", ["in_app.quantity"]),
        ("trial-flag-two", ["in_app.is_trial_period"]),
        ("purchase-cancelled", ["in_app.cancellation_date"]),
        ("product-of-another-app", ["in_app.product_id"]),
    ]

    @Test(arguments: singleField)
    func reportsTheMutatedFieldAndNothingElse(_ name: String, _ fields: Set<String>) throws {
        let authority = try #require(TestReceipts.authority)
        let foreign = try #require(TestReceipts.foreignAuthority)
        let device = try #require(Expectations.parseDeviceID(MutationKit.defaultDeviceID))
        let kit = MutationKit(authority: authority, foreign: foreign, deviceID: device)
        let input = Fixtures.realReceipt(Fixtures.sandboxReceipt)
        let baseline = try #require(MutationCatalogue.named("baseline")).apply(to: input, kit: kit, seed: 1)
        let mutated = try #require(MutationCatalogue.named(name)).apply(to: input, kit: kit, seed: 1)
        let result = try Diffing.diff(baseline, mutated, options: DiffOptions(layers: [.receipt]))
        let changed = Set(
            result.changes.map { change -> String in
                let path = change.path.description
                if path.hasPrefix("in_app[") {
                    return "in_app." + (path.split(separator: ".").last.map(String.init) ?? path)
                }
                guard let open = path.firstIndex(of: "["), let hash = path.firstIndex(of: "#") else { return path }
                return String(path[path.index(after: open)..<hash])
            })
        #expect(changed == fields, "\(Diffing.paths(result))")
        #expect(result.changes.count == fields.count, "\(Diffing.paths(result))")
    }
}

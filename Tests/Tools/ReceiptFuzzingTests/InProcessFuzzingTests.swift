import Foundation
import ReceiptConformance
import ReceiptFuzzing
import ReceiptMutation
import ReceiptSigning
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// The in-process pieces a Swift validator's libFuzzer harness uses: the mutator and the oracle, driven here by a
/// plain loop (libFuzzer's role) against a validator with a planted bug, which they must find.
@Suite("In-process validator fuzzing")
struct InProcessFuzzingTests {
    static let ca: String? = {
        guard let authority = TestReceipts.authority, let foreign = TestReceipts.foreignAuthority else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-inprocess-\(UUID().uuidString)"
        ).path
        do {
            try CertificateAuthorityFiles.write(authority, to: directory, force: true)
            try CertificateAuthorityFiles.write(foreign, to: directory + "/foreign", force: true)
        } catch {
            return nil
        }
        return directory
    }()

    @Test func theMutatorAndOracleFindThePlantedBug() throws {
        let ca = try #require(Self.ca)
        let fuzzing = try InProcessFuzzing(caDirectory: ca, bundleID: "com.cocoanetics.EmmiView", appVersion: "246")
        let validator = PlantedBugValidator(
            anchors: TrustAnchors([fuzzing.kit.authority.root]),
            bundleID: "com.cocoanetics.EmmiView", appVersion: "246",
            deviceID: fuzzing.kit.deviceID)
        // libFuzzer's loop, by hand: start from the seed re-signed, mutate the corpus, keep what rcpt takes.
        // The seed re-signed as it is (the baseline entry), whatever the catalogue holds besides.
        let seed = try MutationCatalogue.baseline.apply(
            to: Fixtures.realReceipt(Fixtures.sandboxReceipt), kit: fuzzing.kit, seed: 1)
        var corpus = [seed]
        var found: (Int, ReferenceVerdict)?
        for round in 0..<600 where found == nil {
            let parent = corpus[round % corpus.count]
            guard let child = fuzzing.mutated(parent, seed: UInt64(round) &* 0x9E37_79B9) else { continue }
            if let (kind, verdict) = fuzzing.disagreement(child, validatorAccepted: validator.accepts(child)) {
                #expect(kind == .acceptedWhatRcptRejects)
                found = (round, verdict)
            }
            // Kept when rcpt takes it: a corpus of refused inputs drifts away from anything a validator accepts.
            if corpus.count < 64, fuzzing.reference(child).isValid { corpus.append(child) }
        }
        let (round, verdict) = try #require(found, "the planted bug was not found in 600 inputs")
        #expect(verdict.codes.contains("duplicate-attribute"), "round \(round): \(verdict.codes)")
    }

    @Test func theOracleJudgesWithTheTestRootAndTheMutatorFallsBack() throws {
        let ca = try #require(Self.ca)
        let fuzzing = try InProcessFuzzing(caDirectory: ca, bundleID: "com.cocoanetics.EmmiView", appVersion: "246")
        let original = Fixtures.realReceipt(Fixtures.sandboxReceipt)
        // Apple's chain is not the test root; the same content re-signed by the test CA is valid.
        #expect(!fuzzing.reference(original).isValid)
        let resigned = try MutationCatalogue.baseline.apply(to: original, kit: fuzzing.kit, seed: 1)
        #expect(fuzzing.reference(resigned).isValid)
        #expect(fuzzing.disagreement(resigned, validatorAccepted: false)?.0 == .rejectedWhatRcptAccepts)
        // The mutator calls the fallback (libFuzzer's own mutator) when nothing applies: an empty input.
        var buffer = [UInt8](repeating: 0, count: 16)
        let size = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
            guard let base = pointer.baseAddress else { return -1 }
            return fuzzing.mutate(base, 0, 16, seed: 1) { _, _, _ in 7 }
        }
        #expect(size == 7)
    }

    @Test(
        arguments: [
            (RunOutcome.accepted, true, nil), (.accepted, false, Disagreement.acceptedWhatRcptRejects),
            (.rejected(status: 1), true, .rejectedWhatRcptAccepts), (.rejected(status: 2), false, nil),
            (.crashed(signal: 11), true, .crashed), (.timedOut, false, .timedOut),
            (.errored(status: 3), true, .errored),
        ] as [(RunOutcome, Bool, Disagreement?)])
    func outcomesAreClassedAgainstRcptsVerdict(_ outcome: RunOutcome, _ rcptValid: Bool, _ expected: Disagreement?) {
        #expect(
            ValidatorCampaign.classify(outcome, reference: ReferenceVerdict(isValid: rcptValid, codes: [])) == expected)
    }
}

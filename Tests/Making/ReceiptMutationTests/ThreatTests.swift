import ReceiptRendering
import ReceiptSuite
import Testing

@testable import ReceiptConformance
@testable import ReceiptMutation

/// Every catalogue entry says who could make it and what accepting it costs, by one rule: what no signature covers
/// anyone can make (security); a genuine document of another app, device, version or time is a replay; a shape
/// inside the signed content only the signer can make, and Apple never signs it (robustness).
@Suite("Who could make each catalogue entry")
struct ThreatTests {
    static func receipt(_ name: String) -> Threat? { MutationCatalogue.named(name)?.threat }
    static func jws(_ name: String) -> Threat? { JWSMutationCatalogue.named(name)?.threat }

    @Test func aSignerOnlyShapeIsRobustnessAndNothingElseIs() {
        let threats =
            MutationCatalogue.all.map { ($0.name, $0.threat) } + JWSMutationCatalogue.all.map { ($0.name, $0.threat) }
        for (name, threat) in threats {
            if threat.attacker == .signer { #expect(threat.concern == .robustness, "\(name): \(threat)") }
            // What anyone can make is robustness only as a cross-reader ambiguity, and then it names the readers.
            if threat.concern == .robustness, threat.attacker != .signer {
                #expect(threat.attacker == .anyone && threat.readers != nil, "\(name): \(threat)")
            }
            #expect(!threat.why.isEmpty, "\(name)")
        }
        // Each kind has entries of every attacker.
        for attacker in Attacker.allCases {
            #expect(MutationCatalogue.all.contains { $0.threat.attacker == attacker }, "receipts: \(attacker)")
            #expect(JWSMutationCatalogue.all.contains { $0.threat.attacker == attacker }, "JWS: \(attacker)")
        }
    }

    /// What the signature does not cover is anyone's to make: a broken or missing signature, a foreign chain, the
    /// container and wrapping around genuine content.
    @Test func whatNoSignatureCoversIsAnyones() {
        for mutation in MutationCatalogue.all where !mutation.signatureValid {
            #expect(mutation.threat.attacker == .anyone && mutation.threat.concern == .security, "\(mutation.name)")
        }
        for mutation in JWSMutationCatalogue.all where !mutation.signatureValid {
            // A forgery where no server reads is anyone's too, a cross-reader ambiguity that names its readers.
            let crossReader = mutation.threat.concern == .robustness && mutation.threat.readers != nil
            #expect(
                mutation.threat.attacker == .anyone && (mutation.threat.concern == .security || crossReader),
                "\(mutation.name)")
        }
        for name in [
            "foreign-ca", "self-signed-leaf", "storekit-certificate-on-production",
            "leaf-marker-stripped", "intermediate-marker-stripped",
            "signature-algorithm-pss", "econtent-second-octet-string", "storekit-certificate-on-xcode-type",
            "decoy-marked-leaf-first", "genuine-chain-before-self-signed-signer",
        ] {
            #expect(Self.receipt(name)?.attacker == .anyone, "\(name)")
            #expect(Self.receipt(name)?.concern == .security, "\(name)")
        }
        // Edits outside the signed content that leave it Apple's and the signature verifying over it (OpenSSL takes
        // them): anyone's, but accepting them gains nothing (careful OpenSSL-based validators failed the gate; the
        // second, on bytes after the ContentInfo).
        for name in [
            "signature-algorithm-mismatch", "signature-algorithm-md5-rsa", "content-type-not-data",
            "certificates-over-limit", "signed-attributes-not-der", "trailing-garbage",
            // Two receipt-data copies, one forged: a validator verifies the copy it reads (a reviewer's trial: a
            // careful validator reading the last copy, as Python's json does, failed the gate).
            "verify-receipt-body-duplicate-key",
            // Apple's intermediate is public: a careful validator that brings its own builds Apple's chain (a red
            // team's trial, session 39: an OpenSSL validator given it failed the gate).
            "certificates-missing-intermediate",
        ] {
            #expect(Self.receipt(name)?.attacker == .anyone, "\(name)")
            #expect(Self.receipt(name)?.concern == .robustness && Self.receipt(name)?.readers != nil, "\(name)")
        }
        for name in [
            "alg-none", "alg-hs256-public-key", "x5c-foreign-chain", "leaf-marker-missing", "signature-bit-flip",
            "document-token-bearer", "document-duplicate-signed-payload", "untrusted-carrier-many-nested",
        ] {
            #expect(Self.jws(name)?.attacker == .anyone, "\(name)")
            #expect(Self.jws(name)?.concern == .security, "\(name)")
        }
        // A DER signature re-encodes Apple's, as the high-S twin does: a verifier that converts it checks Apple's
        // signature over Apple's claims (a red team's trial, session 39: Apple's library behind a strict DER
        // conversion failed the gate).
        #expect(Self.jws("signature-der")?.attacker == .anyone && Self.jws("signature-der")?.concern == .robustness)
    }

    /// A genuine document of another app or device is a replay, and accepting it is a security failure; another
    /// version, environment or time is the app's policy.
    @Test func aGenuineDocumentElsewhereIsAReplay() {
        // An app whose bundle id extends yours is anyone's to register (a reviewer's trial: a validator checking the
        // bundle id by prefix passed every suite).
        // Nor one whose id ends with yours (session 39: a suffix check passed every suite).
        for name in ["other-bundle-id", "hash-for-other-device", "bundle-id-extended", "bundle-id-prefixed"] {
            #expect(Self.receipt(name)?.attacker == .replay && Self.receipt(name)?.concern == .security, "\(name)")
        }
        for name in ["wrong-app-version", "receipt-expired", "environment-sandbox"] {
            #expect(Self.receipt(name)?.attacker == .replay && Self.receipt(name)?.concern == .policy, "\(name)")
        }
        #expect(Self.jws("device-verification-other-device")?.concern == .security)
        for name in ["bundle-id-extended", "bundle-id-prefixed"] {
            #expect(Self.jws(name)?.attacker == .replay && Self.jws(name)?.concern == .security, "\(name)")
        }
        // SHA-1 chains are genuine receipts of before 2023: refusing one refuses a paying customer.
        #expect(Self.receipt("chain-sha1-signatures")?.attacker == .replay)
        #expect(Self.jws("application-version-other")?.concern == .policy)
    }

    /// What Apple's verifier accepts though rcpt refuses it, in the JWS suites of a genuine notification,
    /// transaction and renewal info: each a shape only the signing key's holder can make.
    @Test func theShapesOnlyTheSignerCanMakeAreRobustness() {
        for name in [
            "quantity-as-string", "product-id-as-array", "is-upgraded-as-string", "duplicate-bundle-id",
            "duplicate-environment", "transaction-id-beyond-2-53", "signed-date-minus-zero",
            "signed-date-in-future", "leaf-signed-with-sha1", "leaf-extended-key-usage", "x5c-ber-length",
            "alg-duplicate", "notification-nested-foreign-chain",
        ] {
            #expect(Self.jws(name)?.attacker == .signer, "\(name)")
            #expect(Self.jws(name)?.concern == .robustness, "\(name)")
        }
        for name in [
            "duplicate-bundle-id-last", "quantity-as-set", "creation-date-february-30", "nesting-bomb",
            "leaf-key-1024", "signer-is-intermediate",
        ] {
            #expect(Self.receipt(name)?.attacker == .signer, "\(name)")
        }
        // Where readers are known to disagree, the entry names them.
        #expect(Self.jws("duplicate-bundle-id")?.readers?.contains("keep the last") == true)
        #expect(Self.jws("transaction-id-beyond-2-53")?.readers?.contains("2^53") == true)
        #expect(Self.jws("document-member-case-variant")?.readers?.contains("case-insensitively") == true)
        #expect(Self.receipt("duplicate-bundle-id-first")?.readers?.contains("keeps the first") == true)
    }

    /// Apple's verifier accepts a genuine document with something forged where Apple's documents carry nothing a
    /// server reads: a cross-reader ambiguity anyone can make, reported with its readers, not a security failure.
    @Test func aForgeryWhereNoServerReadsIsACrossReaderAmbiguity() {
        for name in [
            "document-member-case-variant", "document-token-no-break-space", "document-token-spaced-header",
            "document-names-another-app",
        ] {
            #expect(Self.jws(name)?.attacker == .anyone, "\(name)")
            #expect(Self.jws(name)?.concern == .robustness, "\(name)")
            #expect(Self.jws(name)?.readers != nil, "\(name)")
        }
    }

    /// Edits made together need the strongest attacker any of them needs.
    @Test func combinedEditsNeedTheStrongestAttacker() {
        let anyone = Threat(.anyone, .security, "a")
        let replay = Threat(.replay, .policy, "r")
        #expect(Threat.combined([anyone, replay]).attacker == .replay)
        #expect(Threat.combined([anyone, replay]).concern == .security)
        #expect(Threat.combined([anyone, Threat.signedEdit]).concern == .robustness)
        #expect(Threat.replayed(for: ["bundle-id-mismatch"])?.attacker == .replay)
        #expect(Threat.replayed(for: ["environment-mismatch"])?.concern == .policy)
        #expect(Threat.replayed(for: ["duplicate-attribute"]) == nil)
        // Claims that disagree among themselves are the signer's alone (a trial, session 28: an app transaction
        // whose environment matched and whose receiptType did not failed a careful validator's campaign as a replay).
        #expect(Threat.replayed(for: ["jws-binding-mismatch"]) == nil)
        #expect(Threat.replayed(for: ["jws-binding-mismatch", "environment-mismatch", "app-apple-id-mismatch"]) == nil)
    }

    /// A crash on an entry only the signer can make is said so, not called a denial of service anyone can cause (a
    /// CI user's trial, session 28: Apple's library raised on a signer-only payload).
    @Test func aCrashSaysWhoCouldCauseIt() {
        func cause(_ attacker: Attacker?, _ outcome: RunOutcome) -> String {
            ConformanceReport.cause(Self.result(attacker: attacker, outcome: outcome))
        }
        #expect(cause(.signer, .crashed(signal: 11)).hasPrefix("only the signing key's holder"))
        #expect(cause(.signer, .timedOut).hasPrefix("only the signing key's holder"))
        #expect(cause(.anyone, .crashed(signal: 11)).contains("anyone can send"))
        #expect(cause(nil, .crashed(signal: 11)).contains("anyone can send"))
        // A must-accept entry only the signer can make, refused, locks no paying customer out (a CI user's trial,
        // session 29: BER payloads and an UTF8String creation date were said to).
        var strict = Self.result(attacker: .signer, outcome: .rejected(status: 1))
        strict.expected = .accept
        #expect(ConformanceReport.cause(strict).contains("Apple never signs"))
        strict.attacker = .anyone
        #expect(ConformanceReport.cause(strict).contains("paying customers"))
    }

    /// A JWS entry accepted is said by the layer of its edit, as a receipt's is by its group: "signature not
    /// checked" and "chain not checked" are different repairs (a CI user's trial, session 28: every JWS flaw had one
    /// heading).
    @Test func aJWSFlawIsSaidByItsLayer() {
        let signature = Self.result(layer: "signature")
        let chain = Self.result(layer: "chain")
        #expect(signature.causeGroup == "jws signature" && chain.causeGroup == "jws chain")
        #expect(ConformanceReport.cause(signature).contains("signature"))
        #expect(ConformanceReport.cause(chain).contains("x5c chain"))
        #expect(ConformanceReport.cause(signature) != ConformanceReport.cause(chain))
        #expect(Self.result(layer: nil).causeGroup == "jws")
        for layer in ["binding", "document", "encoding", "header", "nesting", "payload"] {
            #expect(
                ConformanceReport.cause(Self.result(layer: layer)) != ConformanceReport.cause(Self.result(layer: nil)))
        }
    }

    /// `--allow-entry` un-gates one entry's acceptance (a production server that accepts Sandbox documents for App
    /// Review, as Apple advises, failed every run on environment-other: a CI user's trial, session 29); a crash on
    /// it still fails, and every other entry is gated as before.
    @Test func anAllowedEntrysAcceptanceIsReportedNotFailed() {
        var gate = Gate.standard
        gate.allowedEntries = ["n"]
        #expect(Gate.standard.fails(Self.result()))
        #expect(!gate.fails(Self.result()))
        #expect(gate.fails(Self.result(outcome: .crashed(signal: 11))))
        var other = Self.result()
        other.name = "m"
        #expect(gate.fails(other))
        let report = ConformanceReport(results: [Self.result()], gate: gate)
        #expect(!report.failed)
        #expect(
            report.text(style: TextStyle(useColor: false)).contains("--allow-entry"))
    }

    static func result(
        attacker: Attacker? = .anyone, layer: String? = nil, outcome: RunOutcome = .accepted
    ) -> ConformanceResult {
        ConformanceResult(
            name: "n", group: "jws", layer: layer, description: "d",
            concern: attacker == .anyone ? .security : .robustness,
            attacker: attacker, expected: .reject,
            run: ValidatorRun(outcome: outcome, seconds: 0, stderrTail: "", stdoutTail: ""), file: "f", command: "c")
    }
}

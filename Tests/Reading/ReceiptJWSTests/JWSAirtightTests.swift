import Foundation
import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptModel
import ReceiptSigning
import ReceiptTestSupport
import ReceiptValidation
import Testing

@testable import ReceiptJWS

/// The rules that close the false "valid" verdicts of the JWS red team (issue #20): the same text gets the same
/// judgement in a file and in a JSON token position, dates are read exactly or refused, each kind is bound where
/// Apple's verifier binds it, nested tokens agree with their carrier, and work is bounded by trust. The named
/// mutations (`JWSMutationTests`) prove each attack class; these tests prove the rules on their own.
@Suite("JWS verdicts airtight")
struct JWSAirtightTests {
    // MARK: - No false reject: every real sample with its own expectations

    static func expectations(_ binding: JWSBinding) -> Expectations {
        Expectations(
            bundleID: binding.bundleID?.text ?? (binding.kind == .renewalInfo ? "com.example.any" : nil),
            appAppleID: binding.appAppleID?.text,
            environment: binding.environment.flatMap { ReceiptEnvironment(rawValue: $0.text) })
    }

    /// Every sample verifies with its own bundle id, app id and environment as expectations, and so does every token
    /// it carries, judged alone with its carrier's: renewal info, which carries no bundleId, only with a warning.
    @Test(arguments: JWSSampleTests.samples)
    func everySampleVerifiesWithItsOwnExpectations(_ name: String) throws {
        let anchors = try JWSSampleTests.anchors(for: name)
        let bytes = Fixtures.bytes(JWSSampleTests.directory + name)
        let first = try #require(
            JWSInspector.inspect(bytes, options: InspectionOptions(anchors: anchors, now: 1_795_000_000)).tokens.first)
        let expected = Self.expectations(first.binding)
        let inspection = JWSInspector.inspect(
            bytes,
            options: InspectionOptions(
                anchors: anchors, expectations: expected,
                now: 1_795_000_000))
        #expect(inspection.isValid == true, "\(name): \(Inspection(inspection).codes(.error))")
        if first.binding.kind == .renewalInfo {
            #expect(first.binding.bundleID == nil)
            #expect(JWSFixtures.codes(inspection).contains("jws-not-bound-to-app"))
        }
        for nested in first.nested {
            let alone = JWSInspector.inspect(
                Array(nested.token.text),
                options: InspectionOptions(
                    anchors: anchors, expectations: expected, now: 1_795_000_000))
            #expect(alone.isValid == true, "\(name) \(nested.path) alone: \(Inspection(alone).codes(.error))")
        }
    }

    /// `--app-apple-id` no longer fails a notification because the transaction it carries has none, nor
    /// `--bundle-id` one that carries renewal info.
    @Test func aRealNotificationPassesItsOwnAppIdentifiers() throws {
        let bytes = Fixtures.bytes("Corpus/jws/gopay-notif-CONSUMPTION_REQUEST-production.jws")
        let anchors = try TrustAnchors.appleRootG3()
        let plain = JWSInspector.inspect(bytes, options: InspectionOptions(anchors: anchors, now: 1_795_000_000))
        let binding = try #require(plain.tokens.first?.binding)
        #expect(binding.kind == .notification)
        #expect(binding.bundleID?.path == "data.bundleId")
        let appID = try #require(binding.appAppleID?.text)
        let expected = Expectations(bundleID: binding.bundleID?.text, appAppleID: appID, environment: .production)
        #expect(
            JWSInspector.inspect(
                bytes,
                options: InspectionOptions(
                    anchors: anchors, expectations: expected,
                    now: 1_795_000_000)
            ).isValid)
        let other = Expectations(appAppleID: appID + "1")
        let codes = Inspection(
            JWSInspector.inspect(
                bytes,
                options: InspectionOptions(
                    anchors: anchors, expectations: other, now: 1_795_000_000))
        ).codes(.error)
        #expect(codes == ["app-apple-id-mismatch"])
    }

    // MARK: - One text, one judgement

    static let shapes: [(name: String, wrap: @Sendable (String) -> String)] = [
        ("bare", { $0 }), ("space before", { " " + $0 }), ("line break after", { $0 + "\n" }),
        ("tab after", { $0 + "\t" }), ("NUL around", { "\u{0}" + $0 + "\u{0}" }),
        ("zero-width before", { "\u{200B}" + $0 }), ("byte order mark before", { "\u{FEFF}" + $0 }),
        ("quoted", { "\"" + $0 + "\"" }), ("Bearer", { "Bearer " + $0 }),
        ("tab inside", { String($0.prefix(20)) + "\t" + String($0.dropFirst(20)) }),
        ("two parts", { $0.split(separator: ".").prefix(2).joined(separator: ".") }),
        ("four parts", { $0 + ".e30" }),
    ]

    /// Genuine and forged tokens in every shape people and attackers produce: the verdict of the text as a whole
    /// file is the verdict of the same text in a JSON token position (a forged one is never skipped).
    @Test(arguments: shapes.map(\.name))
    func theSameTextGetsTheSameJudgementInAFileAndInJSON(_ shape: String) throws {
        let wrap = try #require(Self.shapes.first { $0.name == shape }?.wrap)
        let signer = try JWSFixtures.signer()
        let genuine = try signer.sign(payload: Array(JWSFixtures.transaction().utf8))
        let parts = genuine.split(separator: ".").map(String.init)
        let forged =
            parts[0] + "." + Base64URL.encode(Array(JWSFixtures.transaction(bundleId: "com.example.attacker").utf8))
            + "." + parts[2]
        for (text, isGenuine) in [(genuine, true), (forged, false)] {
            let asFile = JWSFixtures.inspect(wrap(text))
            let alone = JWSFixtures.inspect(#"{"signedTransactions":[\#(JSONWriter.literal(wrap(text)))]}"#)
            let beside = JWSFixtures.inspect(
                #"{"signedTransactions":["\#(genuine)",\#(JSONWriter.literal(wrap(text)))]}"#)
            #expect(
                asFile.isValid == alone.isValid, "\(shape) \(isGenuine): file \(asFile.isValid), JSON \(alone.isValid)")
            #expect(asFile.isValid == beside.isValid, "\(shape) \(isGenuine) beside a genuine token")
            if !isGenuine { #expect(!beside.isValid, "a forged token in shape \(shape) was skipped") }
            if isGenuine && ["bare", "space before", "quoted", "Bearer", "NUL around"].contains(shape) {
                #expect(asFile.isValid, "\(shape): a genuine token")
            }
        }
    }

    @Test func tokenPositionsAreApplesSignedMembersAndTokenLookingStrings() throws {
        let document = try JSONDocument.read(
            Array(
                #"{"signedPayload":"x","signedDate":1,"signedTransactions":["a","b"],"note":" eyJx.y","other":"plain","data":{"signedRenewalInfo":""}}"#
                    .utf8))
        let positions = JWSPositions.find(in: document).map { document.paths()[$0.node] }
        #expect(
            positions == [
                "signedPayload", "signedTransactions[0]", "signedTransactions[1]", "note",
                "data.signedRenewalInfo",
            ])
        #expect(JWSText.isTokenMember("signedAppTransactionInfo"))
        #expect(!JWSText.isTokenMember("signedDate"))
        #expect(!JWSText.isTokenMember("signed"))
    }

    /// A member name judged from its bytes as written gets the answer its unescaped name gets, whatever its case,
    /// escapes or non-ASCII letters.
    @Test func tokenMembersAreTheSameFromTheBytesAsWritten() throws {
        let names = [
            "signedPayload", "SIGNEDPAYLOAD", "signed_payload", "signed", "Signed", "signedDate", "SIGNEDDATE",
            "signedDates", "signeddat", "signe", "unsignedPayload", #"\u0073ignedPayload"#, #"signed\u0044ate"#,
            #"signed\"x"#, "signedé", "sİgnedPayload", "signe\u{301}dPayload", "",
        ]
        for name in names {
            let document = try JSONDocument.read(Array(#"{"\#(name)":1}"#.utf8))
            let child = document.root + 1
            let range = try #require(document.nodes[child].keyRange)
            let unescaped = try #require(document.key(child))
            #expect(
                JWSText.isTokenMember(written: document.bytes[range], unescaped: { unescaped })
                    == JWSText.isTokenMember(unescaped), "\(name)")
        }
    }

    // MARK: - Dates

    @Test func millisecondDatesAreReadExactlyOrRefused() {
        func read(_ text: String) -> Int64? { try? MillisecondDate.read(text).get().milliseconds }
        #expect(read("1717243200000") == 1_717_243_200_000)
        #expect(read("1.7172432e12") == 1_717_243_200_000)
        #expect(read("1.7172432E+12") == 1_717_243_200_000)
        #expect(read("17172432000000e-1") == 1_717_243_200_000)
        #expect(read("1697679936056.485") == 1_697_679_936_056)
        #expect(read("-62135769600000") == -62_135_769_600_000)
        #expect(read("-0.5") == -1)
        #expect(read("0") == 0)
        #expect(read("9007199254740992") == 9_007_199_254_740_992)
        #expect(read("9007199254740993") == nil)
        #expect(read("18446744073709551616") == nil)
        #expect(read("1e400") == nil)
        #expect(read("1e-400") == 0)
        #expect(read(String(repeating: "7", count: 1_000)) == nil)
        #expect(read("NaN") == nil)
        #expect(read("") == nil)
        #expect((try? MillisecondDate.read("-0").get().isNegative) == true)
    }

    /// The allocation-free reading of plain digits gives exactly what the general reading gives, and leaves every
    /// other text to it: leading zeros, 1 to 20 digits, signs, fractions, exponents and stray bytes.
    @Test func plainDigitsReadAsTheGeneralReadingDoes() {
        var generator = SystemRandomNumberGenerator()
        var texts = ["0", "00", "000000000000000", "999999999999999", "1000000000000000", "0999999999999999"]
        texts += ["-1", "+1", "1.0", "1e3", " 1", "1 ", "١٢", "12a", "", "-", "0x10"]
        for length in 1...20 {
            for _ in 0..<50 {
                texts.append(
                    String((0..<length).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) }))
            }
        }
        for text in texts {
            if let plain = MillisecondDate.plainDigits(text.utf8) {
                #expect(text.utf8.count <= 15, "\(text)")
                #expect(
                    MillisecondDate.readInGeneral(text)
                        == .success(MillisecondDate(milliseconds: plain, isNegative: false, hasFraction: false)),
                    "\(text)")
            }
            #expect(MillisecondDate.read(text) == MillisecondDate.readInGeneral(text), "\(text)")
        }
        #expect(MillisecondDate.plainDigits("1717243200000".utf8) == 1_717_243_200_000)
        #expect(MillisecondDate.plainDigits("1e3".utf8) == nil)
    }

    /// A signedDate that is present but no date makes the token invalid, whatever else is right: it is never
    /// read as absent (which judged the chain now and skipped the future-date check).
    @Test(arguments: ["-1717243200000", "-0", "0", "9007199254740993", "1e400", "\"1717243200000\""])
    func anUnusableSignedDateIsNeverAbsent(_ value: String) throws {
        let signer = try JWSFixtures.signer()
        let payload = JWSFixtures.transaction().replacingOccurrences(of: String(JWSFixtures.signedDate), with: value)
        let inspection = JWSFixtures.inspect(try signer.sign(payload: Array(payload.utf8)))
        #expect(!inspection.isValid, "\(value)")
        let codes = JWSFixtures.codes(inspection)
        #expect(codes.contains("jws-date-unusable") || codes.contains("jws-claim-type"), "\(value): \(codes)")
        #expect(inspection.tokens.first?.chain?.evaluatedAtSource != .signedDate)
    }

    /// A signedDate that is `null` is absent, as Apple's libraries read it and as every other `null` claim is (a
    /// `jws-claim-type` warning, an error under --strict): the chain is judged now, as without the claim. It was
    /// also `jws-date-unusable`, which contradicted the warning and failed a careful validator's campaign (a
    /// trial, session 28).
    @Test func aNullSignedDateIsAbsent() throws {
        let signer = try JWSFixtures.signer()
        let payload = JWSFixtures.transaction().replacingOccurrences(of: String(JWSFixtures.signedDate), with: "null")
        let inspection = JWSFixtures.inspect(try signer.sign(payload: Array(payload.utf8)))
        let codes = JWSFixtures.codes(inspection)
        #expect(!codes.contains("jws-date-unusable"), "\(codes)")
        #expect(codes.contains("jws-claim-type"), "\(codes)")
        #expect(inspection.tokens.first?.chain?.evaluatedAtSource != .signedDate)
        let valid = inspection.isValid
        #expect(valid, "\(codes)")
    }

    /// A notification's `data` (or `summary`) that is null is absent, as Apple's libraries read it: `"data": null`
    /// beside a summary binds the notification to the summary's app (a red team's trial: refused as carrying both,
    /// where Apple's verifier accepts it).
    @Test(arguments: [
        #""data":null,"summary":{"bundleId":"com.example.app","environment":"Sandbox"}"#,
        #""summary":null,"data":{"bundleId":"com.example.app","environment":"Sandbox"}"#,
    ])
    func aNullNotificationObjectIsAbsent(_ objects: String) throws {
        let signer = try JWSFixtures.signer()
        let payload =
            #"{"notificationType":"RENEWAL_EXTENSION","notificationUUID":"00000000-0000-4000-8000-000000000001","#
            + objects + #","version":"2.0","signedDate":\#(JWSFixtures.signedDate)}"#
        let inspection = JWSFixtures.inspect(
            try signer.sign(payload: Array(payload.utf8)),
            options: JWSFixtures.options(
                expectations: Expectations(bundleID: "com.example.app", environment: .sandbox)))
        #expect(inspection.isValid, "\(JWSFixtures.codes(inspection))")
        #expect(!JWSFixtures.codes(inspection).contains("jws-binding-mismatch"))
    }

    /// A date claim before 1970 is no date Apple writes, and readers split on it: JavaScript and Apple's libraries
    /// date a revocation of -1 in 1969 (revoked), a reader taking dates below 1 for none reads it as absent
    /// (active). It is an error, never read as absent in silence (a trial's revocationDate -1 was valid, and
    /// `status` said ACTIVE).
    /// The epoch itself (0) is no such date either: read as none by the same readers, an expiry of 0 made a
    /// library adopter's snippet grant for ever (session 27).
    @Test(arguments: ["revocationDate", "expiresDate", "gracePeriodExpiresDate"])
    func aDateBefore1970IsUnusable(_ claim: String) throws {
        let signer = try JWSFixtures.signer()
        for value in ["-1", "-1717243200000", "-0.5", "0", "0.0"] {
            let payload = JWSFixtures.transaction(extra: #","\#(claim)":\#(value)"#)
            let inspection = JWSFixtures.inspect(try signer.sign(payload: Array(payload.utf8)))
            #expect(!inspection.isValid, "\(claim) \(value)")
            #expect(JWSFixtures.codes(inspection).contains("jws-date-unusable"), "\(claim) \(value)")
        }
    }

    /// A transaction's quantity is a count of units Apple sells, 1 to 1000, as a receipt record's must be: 0, a
    /// negative number, a fraction or more than a thousand are `quantity-out-of-range` (a red team's trial, session
    /// 27: quantity 0 and -5 were valid, and `status` granted the consumable).
    @Test func aQuantityThatIsNoCountIsOutOfRange() throws {
        let signer = try JWSFixtures.signer()
        for (value, valid) in [("0", false), ("-5", false), ("1.5", false), ("1001", false), ("1", true), ("10", true)]
        {
            let payload = JWSFixtures.transaction().replacingOccurrences(
                of: #""quantity":1"#, with: #""quantity":\#(value)"#)
            let inspection = JWSFixtures.inspect(try signer.sign(payload: Array(payload.utf8)))
            #expect(inspection.isValid == valid, "quantity \(value)")
            #expect(JWSFixtures.codes(inspection).contains("quantity-out-of-range") == !valid, "quantity \(value)")
        }
    }

    /// A number claim past what a double holds is infinity to JSON readers, and Apple's library refuses the token
    /// (a trial: quantity 1e400 was valid in rcpt, refused by Apple's SignedDataVerifier); within it, it is a number.
    @Test func aNumberClaimPastADoubleIsRefused() throws {
        let signer = try JWSFixtures.signer()
        for (value, valid) in [("1e400", false), ("-1e400", false), ("1e308", true), ("2", true)] {
            let payload = JWSFixtures.transaction().replacingOccurrences(
                of: #""quantity":1"#, with: #""quantity":\#(value)"#)
            let inspection = JWSFixtures.inspect(try signer.sign(payload: Array(payload.utf8)))
            #expect(JWSFixtures.codes(inspection).contains("jws-claim-type") == !valid, "\(value)")
        }
    }

    @Test func anExponentSignedDateIsTheInstantItSpells() throws {
        let signer = try JWSFixtures.signer()
        let payload = JWSFixtures.transaction().replacingOccurrences(
            of: String(JWSFixtures.signedDate), with: "1.7172432e12")
        let inspection = JWSFixtures.inspect(try signer.sign(payload: Array(payload.utf8)))
        #expect(inspection.isValid, "\(Inspection(inspection).codes(.error))")
        #expect(inspection.tokens.first?.chain?.evaluatedAt == 1_717_243_200)
    }

    // MARK: - Bounded work

    /// A token from an untrusted chain carrying 60 tokens: its carried tokens are read and marked unverified, and
    /// their one shared chain is never built.
    @Test func tokensCarriedByAnUntrustedTokenAreNotVerified() throws {
        let foreign = try JWSFixtures.signer(JWSFixtures.foreign)
        let inner = try foreign.sign(payload: Array(JWSFixtures.transaction().utf8))
        let list = Array(repeating: "\"\(inner)\"", count: 60).joined(separator: ",")
        let outer = try foreign.sign(
            payload: Array(#"{"signedTransactions":[\#(list)],"signedDate":\#(JWSFixtures.signedDate)}"#.utf8))
        let token = try #require(JWSFixtures.inspect(outer).tokens.first)
        #expect(token.findings.contains { $0.code == "chain-invalid" })
        #expect(token.nested.count == 60)
        #expect(token.nested.allSatisfy { $0.chain == nil && $0.certificates.isEmpty })
        #expect(token.nested.allSatisfy { $0.findings.contains { $0.code == "jws-nested-unverified" } })
    }

    @Test func repeatedFindingsAreCountedOnce() {
        let findings =
            (0..<100).map { Finding(.jsonDuplicateKey, at: $0, "duplicate \($0)") }
            + [Finding(.jwsClaimType, at: 1, "type")]
        let aggregated = findings.aggregated()
        #expect(aggregated.count == 18)
        #expect(aggregated.last?.fields == [FindingField("more", "84")])
        #expect(aggregated.filter { $0.code == "jws-claim-type" }.count == 1)
    }

    // MARK: - Shapes Apple never produces

    @Test func aPayloadThatIsNotAnObjectIsRefused() throws {
        let signer = try JWSFixtures.signer()
        for payload in ["[1]", "\"text\"", "17"] {
            let inspection = JWSFixtures.inspect(try signer.sign(payload: Array(payload.utf8)))
            #expect(inspection.readError?.code == "jws-payload-not-object", "\(payload)")
        }
    }

    @Test func x5cMustBeStandardBase64OfDER() throws {
        let signer = try JWSFixtures.signer()
        let chain = signer.chain.map { Base64Codec.encode($0.derEncoded, alphabet: .standard, padded: true) }
        func header(_ elements: [String]) -> [UInt8] {
            Array(#"{"alg":"ES256","x5c":[\#(elements.map { "\"\($0)\"" }.joined(separator: ","))]}"#.utf8)
        }
        let payload = Array(JWSFixtures.transaction().utf8)
        #expect(JWSFixtures.inspect(try signer.sign(payload: payload, header: header(chain))).isValid)
        var ber = signer.chain[0].derEncoded
        ber.replaceSubrange(1..<2, with: [0x83, 0x00])
        let variants = [
            [chain[0] + "\\n"] + chain.dropFirst(),
            [Base64Codec.encode(ber, alphabet: .standard, padded: true)] + chain.dropFirst(),
        ]
        for elements in variants {
            let codes = JWSFixtures.codes(
                JWSFixtures.inspect(try signer.sign(payload: payload, header: header(elements))))
            #expect(codes.contains("jws-x5c-encoding"), "\(codes)")
        }
    }
}

import Foundation
import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptJWS
import ReceiptModel
import ReceiptSigning
import ReceiptValidation
import Testing

/// The attacks JWS validators fall for, each built with the TEST-ONLY chain (re-signed where that makes the point),
/// and the finding that refuses it.
@Suite("JWS attacks")
struct JWSAttackTests {
    static func b64(_ text: String) -> String { Base64URL.encode(Array(text.utf8)) }

    static func header(_ signer: JWSSigner, _ members: String = "") -> String {
        let standard = String(decoding: signer.header(), as: UTF8.self)
        return members.isEmpty ? standard : String(standard.dropLast()) + "," + members + "}"
    }

    @Test func aTestSignedTransactionIsValidWithItsRoot() throws {
        let signer = try JWSFixtures.signer()
        let token = try signer.sign(payload: Array(JWSFixtures.transaction().utf8))
        let inspection = JWSFixtures.inspect(token)
        #expect(inspection.isValid, "\(JWSFixtures.codes(inspection))")
        #expect(inspection.tokens.first?.chain?.evaluatedAt == JWSFixtures.signedDate / 1000)
        // The built-in Apple Root CA - G3 does not trust it.
        let untrusted = JWSInspector.inspect(
            Array(token.utf8),
            options: InspectionOptions(
                anchors: try TrustAnchors.appleRootG3(), time: .signed, now: 1_800_000_000))
        #expect(JWSFixtures.codes(untrusted).contains("chain-invalid"))
    }

    @Test(arguments: [#""none""#, #""HS256""#, #""RS256""#, #""ES384""#, "null"])
    func anyAlgorithmButES256IsRefused(_ alg: String) throws {
        let signer = try JWSFixtures.signer()
        let header = Self.header(signer).replacingOccurrences(of: #""ES256""#, with: alg)
        let input = Self.b64(header) + "." + Self.b64(JWSFixtures.transaction())
        // Signed as the header says would be: none has no signature; the others get the real ES256 one anyway.
        let signature = alg == #""none""# ? "" : Base64URL.encode(try signer.signRaw(Array(input.utf8)))
        let inspection = JWSFixtures.inspect(input + "." + signature)
        #expect(!inspection.isValid)
        #expect(JWSFixtures.codes(inspection).contains("jws-alg-not-es256"))
    }

    @Test func hmacKeyedWithThePublicKeyIsRefused() throws {
        let signer = try JWSFixtures.signer()
        let header = Self.header(signer).replacingOccurrences(of: #""ES256""#, with: #""HS256""#)
        let input = Self.b64(header) + "." + Self.b64(JWSFixtures.transaction())
        let mac = try Digest.hash(Array(input.utf8), algorithm: .sha256)  // stands for any MAC: 32 octets
        let inspection = JWSFixtures.inspect(input + "." + Base64URL.encode(mac))
        #expect(!inspection.isValid)
        #expect(inspection.tokens.first?.signature == .unsupported)
    }

    @Test func aDEREncodedSignatureIsRefused() throws {
        let signer = try JWSFixtures.signer()
        let input = Self.b64(Self.header(signer)) + "." + Self.b64(JWSFixtures.transaction())
        let raw = try signer.signRaw(Array(input.utf8))
        let der = try #require(ECDSASignature.der(fromRaw: raw))
        let inspection = JWSFixtures.inspect(input + "." + Base64URL.encode(der))
        #expect(!inspection.isValid)
        #expect(JWSFixtures.codes(inspection).contains("jws-signature-der"))
        #expect(ECDSASignature.raw(fromDER: der) == raw)
    }

    /// Both s and n − s verify; the high one is reported, and neither is refused.
    @Test func highSIsReportedNotRefused() throws {
        let signer = try JWSFixtures.signer()
        let input = Self.b64(Self.header(signer)) + "." + Self.b64(JWSFixtures.transaction())
        let raw = try signer.signRaw(Array(input.utf8))
        let twin = ECDSASignature.negatingS(raw)
        #expect(ECDSASignature.negatingS(twin) == raw)
        #expect(ECDSASignature.isHighS(raw) != ECDSASignature.isHighS(twin))
        for signature in [raw, twin] {
            let inspection = JWSFixtures.inspect(input + "." + Base64URL.encode(signature))
            #expect(inspection.isValid)
            #expect(JWSFixtures.codes(inspection).contains("jws-signature-high-s") == ECDSASignature.isHighS(signature))
        }
    }

    /// rcpt's signer always writes a low S (OpenSSL's half the time wrote a high one): a suite's baseline was high S
    /// some runs and not others, and a validator insisting on low S passed one run and failed the next.
    @Test func theSignerWritesLowS() throws {
        let signer = try JWSFixtures.signer()
        let input = Array((Self.b64(Self.header(signer)) + "." + Self.b64(JWSFixtures.transaction())).utf8)
        // 40 signatures: were S random, all 40 low would happen once in 2^40 runs.
        for _ in 0..<40 {
            #expect(!ECDSASignature.isHighS(try signer.signRaw(input)))
        }
    }

    /// A token broken by a line break says so and what to do (it said "byte 10", which a newcomer read as damage).
    @Test func aLineBreakInATokenIsNamed() throws {
        let token = try JWSFixtures.signer().sign(payload: Array(JWSFixtures.transaction().utf8))
        let cut = token.index(token.startIndex, offsetBy: 20)
        let inspection = JWSFixtures.inspect(String(token[..<cut]) + "\n" + String(token[cut...]))
        let message = inspection.readError?.message ?? ""
        #expect(message.contains("a line break (byte 10) at offset 20") && message.contains("remove it"), "\(message)")
    }

    @Test func aPayloadChangedAfterSigningIsRefused() throws {
        let signer = try JWSFixtures.signer()
        let token = try signer.sign(payload: Array(JWSFixtures.transaction().utf8))
        let parts = token.split(separator: ".").map(String.init)
        let forged = parts[0] + "." + Self.b64(JWSFixtures.transaction(bundleId: "com.example.other")) + "." + parts[2]
        let inspection = JWSFixtures.inspect(forged)
        #expect(!inspection.isValid)
        #expect(JWSFixtures.codes(inspection).contains("signature-invalid"))
    }

    @Test(arguments: ["bundleId", "environment", "transactionId"])
    func duplicateClaimsAreRefusedEvenWhenSigned(_ name: String) throws {
        let signer = try JWSFixtures.signer()
        let payload = JWSFixtures.transaction(extra: #","\#(name)":"evil""#)
        let inspection = JWSFixtures.inspect(try signer.sign(payload: Array(payload.utf8)))
        #expect(!inspection.isValid)
        let finding = try #require(inspection.tokens.first?.findings.first { $0.code == "json-duplicate-key" })
        #expect(finding.fields.contains(FindingField("path", name)))
        // Its offset is a character of the payload part that carries the second name.
        let payloadRange = try #require(inspection.tokens.first?.token.ranges[.payload])
        #expect(payloadRange.contains(try #require(finding.offset)))
    }

    @Test func anIntegerBeyond2To53IsReportedAndATransactionIdNumberIsRefused() throws {
        let signer = try JWSFixtures.signer()
        let unknown = JWSFixtures.transaction(extra: #","customCounter":9007199254740993"#)
        let warned = JWSFixtures.inspect(try signer.sign(payload: Array(unknown.utf8)))
        #expect(JWSFixtures.codes(warned).contains("json-unsafe-integer"))
        let warnedIsValid = warned.isValid
        #expect(warnedIsValid)  // a warning on a claim Apple does not define: the reader keeps the exact text
        let payload = JWSFixtures.transaction().replacingOccurrences(
            of: #""transactionId":"2000000000000001""#, with: #""transactionId":9007199254740993"#)
        let refused = JWSFixtures.inspect(try signer.sign(payload: Array(payload.utf8)))
        #expect(JWSFixtures.codes(refused).contains("jws-claim-type"))
        let refusedIsValid = refused.isValid
        #expect(!refusedIsValid)
    }

    @Test func critIsRefusedAndKeyReferencesAreNamed() throws {
        let signer = try JWSFixtures.signer()
        let payload = Array(JWSFixtures.transaction().utf8)
        let crit = JWSFixtures.inspect(
            try signer.sign(
                payload: payload,
                header: Array(Self.header(signer, #""crit":["exp"],"exp":1"#).utf8)))
        #expect(!crit.isValid)
        #expect(JWSFixtures.codes(crit).contains("jws-crit-header"))
        let jku = JWSFixtures.inspect(
            try signer.sign(
                payload: payload,
                header: Array(Self.header(signer, #""jku":"https://evil.example/keys""#).utf8)))
        #expect(jku.isValid)
        #expect(
            jku.tokens.first?.findings.contains { $0.code == "jws-key-reference-header" && $0.severity == .warning }
                == true)
    }

    @Test func encodingAnomaliesAreFindings() throws {
        let signer = try JWSFixtures.signer()
        let token = try signer.sign(payload: Array(JWSFixtures.transaction().utf8))
        // The padding base64 writes is read by Apple's libraries: a warning. Any other, and a last character whose
        // dropped bits are set (a second spelling of the same signature), they refuse: errors (a red team's trial).
        let padded = JWSFixtures.inspect(token + "==")
        #expect(JWSFixtures.codes(padded).contains("jws-base64url-padding"))
        #expect(padded.isValid, "\(JWSFixtures.codes(padded))")
        for irregular in ["=", "===", "===="] {
            let inspection = JWSFixtures.inspect(token + irregular)
            #expect(!inspection.isValid, "\(irregular)")
            #expect(
                inspection.tokens.flatMap(\.findings).contains {
                    $0.code == "jws-base64url-padding" && $0.severity == .error
                } || inspection.readError != nil,
                "\(irregular): \(JWSFixtures.codes(inspection))")
        }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = try #require(token.last.flatMap { alphabet.firstIndex(of: $0) })
        #expect(last & 0x0F == 0)  // 64 bytes in 86 characters: the last one's four low bits are dropped
        let respelled = JWSFixtures.inspect(String(token.dropLast()) + String(alphabet[last | 1]))
        #expect(!respelled.isValid)
        #expect(
            respelled.tokens.flatMap(\.findings).contains {
                $0.code == "jws-base64url-trailing-bits" && $0.severity == .error
            })
        // The standard alphabet, signed as such: the signature verifies over those characters, yet it is refused.
        let header = Base64URL.encode(signer.header())
        var payload = Base64URL.encode(Array((JWSFixtures.transaction(extra: #","x":"\#u{FFFF}>>>""#)).utf8))
        #expect(payload.contains("-") || payload.contains("_"))
        payload = String(payload.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        let input = header + "." + payload
        let standard = JWSFixtures.inspect(input + "." + Base64URL.encode(try signer.signRaw(Array(input.utf8))))
        #expect(!standard.isValid)
        #expect(JWSFixtures.codes(standard).contains("jws-base64url-alphabet"))
        #expect(standard.tokens.first?.signature == .valid)
    }

    @Test(arguments: [
        ("a.b", "jws-part-count"), ("eyJh.eyJh.eyJh.eyJh.eyJh", "jws-part-count"),
        ("eyJ!.e30.", "jws-invalid-base64url"),
        ("e30.e30.", "jws-x5c"), ("WzFd.e30.", "jws-header-not-object"), ("eyJhIjox.e30.", "jws-header-not-json"),
        ("e30.bm90IGpzb24.", "jws-payload-not-json"),
    ])
    func malformedTokensAreNamed(_ text: String, _ code: String) {
        let inspection = JWSFixtures.inspect(text)
        #expect(!inspection.isValid)
        let codes = (inspection.readError.map { [$0.code] } ?? []) + JWSFixtures.codes(inspection)
        #expect(codes.contains { $0.hasPrefix(code) }, "\(text): \(codes)")
    }

    /// x5c longer than rcpt reads is said with its true length (a red team's trial: 20 and 900 were "16").
    @Test func anX5cTooLongToReadIsSaidWithItsLength() throws {
        let signer = try JWSFixtures.signer()
        let long = JWSSigner(key: signer.key, chain: signer.chain + Array(repeating: signer.chain[0], count: 17))
        let inspection = JWSFixtures.inspect(try long.sign(payload: Array(JWSFixtures.transaction().utf8)))
        #expect(!inspection.isValid)
        let length = inspection.tokens.flatMap(\.findings).filter { $0.code == "jws-x5c-length" }
        #expect(length.count == 1)
        #expect(length.first?.message.contains("x5c holds 20 certificates") == true, "\(length.map(\.message))")
    }

    /// A header with a byte order mark, or an array for a header, is a token its reader refuses at an offset, not
    /// "not a receipt or a JWS" (a red team's trial).
    @Test(arguments: [("\u{FEFF}{\"alg\":\"ES256\"}", "jws-header-not-json"), ("[1]", "jws-header-not-object")])
    func aHeaderOfAnotherShapeIsATokensFault(_ header: String, _ code: String) {
        let text = Self.b64(header) + "." + Self.b64(JWSFixtures.transaction()) + ".AAAA"
        let classified = InputClassifier.classify(Array(text.utf8))
        #expect(classified.kind == .jws)
        let inspection = JWSFixtures.inspect(text)
        #expect(inspection.readError?.code == code, "\(String(describing: inspection.readError))")
    }

    /// A value Apple does not document, where a verdict or a state turns on the claim, is said (a red team's trial:
    /// "production" passed unremarked); a documented one, escaped or not, is not.
    @Test func anUndocumentedClaimValueIsSaid() throws {
        let signer = try JWSFixtures.signer()
        let lower = JWSFixtures.transaction().replacingOccurrences(of: #""Sandbox""#, with: #""production""#)
        let said = JWSFixtures.inspect(try signer.sign(payload: Array(lower.utf8)))
        #expect(said.isValid)
        #expect(JWSFixtures.codes(said).contains("jws-claim-value-undocumented"), "\(JWSFixtures.codes(said))")
        let escaped = JWSFixtures.transaction().replacingOccurrences(of: #""Sandbox""#, with: #""\u0053andbox""#)
        let documented = JWSFixtures.inspect(try signer.sign(payload: Array(escaped.utf8)))
        #expect(!JWSFixtures.codes(documented).contains("jws-claim-value-undocumented"))
    }

    @Test func chainAttacksAreRefused() throws {
        let signer = try JWSFixtures.signer()
        let payload = Array(JWSFixtures.transaction().utf8)
        // x5c missing.
        let missing = JWSFixtures.inspect(try signer.sign(payload: payload, header: Array(#"{"alg":"ES256"}"#.utf8)))
        #expect(JWSFixtures.codes(missing).contains("jws-x5c-missing"))
        // Leaf only: no path to the root.
        let leafOnly = JWSSigner(key: signer.key, chain: Array(signer.chain.prefix(1)))
        #expect(JWSFixtures.codes(JWSFixtures.inspect(try leafOnly.sign(payload: payload))).contains("chain-invalid"))
        // A foreign chain, not trusted.
        let foreign = try JWSFixtures.signer(JWSFixtures.foreign)
        #expect(JWSFixtures.codes(JWSFixtures.inspect(try foreign.sign(payload: payload))).contains("chain-invalid"))
        // Reordered x5c: the first certificate is the signer, so the root signs nothing here.
        let reordered = JWSSigner(key: signer.key, chain: signer.chain.reversed())
        #expect(!JWSFixtures.inspect(try reordered.sign(payload: payload)).isValid)
    }

    @Test func signedDateInTheFutureAndExpectationsAreChecked() throws {
        let signer = try JWSFixtures.signer()
        let future = JWSFixtures.transaction().replacingOccurrences(
            of: String(JWSFixtures.signedDate),
            with: "4000000000000")
        #expect(
            JWSFixtures.codes(JWSFixtures.inspect(try signer.sign(payload: Array(future.utf8))))
                .contains("jws-signed-date-in-future"))
        let token = try signer.sign(payload: Array(JWSFixtures.transaction().utf8))
        let expectations = Expectations(bundleID: "com.example.other", appAppleID: "123", environment: .production)
        let codes = JWSFixtures.codes(
            JWSFixtures.inspect(token, options: JWSFixtures.options(expectations: expectations)))
        #expect(codes.contains("bundle-id-mismatch"))
        // A transaction carries no appAppleId (Apple's verifier checks it on notifications and app transactions
        // only), so an expected one is not a mismatch here: it once failed every notification carrying one.
        #expect(!codes.contains("app-apple-id-mismatch"))
        #expect(codes.contains("environment-mismatch"))
        let matching = Expectations(bundleID: "com.example.app", environment: .sandbox)
        #expect(JWSFixtures.inspect(token, options: JWSFixtures.options(expectations: matching)).isValid)
    }

    @Test func aNestedTransactionSignedByAnotherChainIsCaught() throws {
        let signer = try JWSFixtures.signer()
        let foreign = try JWSFixtures.signer(JWSFixtures.foreign)
        let transaction = try foreign.sign(payload: Array(JWSFixtures.transaction().utf8))
        let notification =
            #"{"notificationType":"DID_RENEW","data":{"bundleId":"com.example.app","environment":"Sandbox","#
            + #""signedTransactionInfo":"\#(transaction)"},"version":"2.0","signedDate":\#(JWSFixtures.signedDate)}"#
        let token = try signer.sign(payload: Array(notification.utf8))
        // Only the notification's chain is trusted: the nested transaction is invalid, and so is the notification.
        let inspection = JWSFixtures.inspect(token)
        #expect(!inspection.isValid)
        #expect(inspection.tokens.first?.findings.contains { $0.code == "jws-nested-invalid" } == true)
        #expect(inspection.tokens.first?.nested.first?.path == "data.signedTransactionInfo")
        // Both trusted: valid, but the change of signer is said.
        let both = JWSFixtures.inspect(
            token, options: JWSFixtures.options(anchors: [JWSFixtures.authority, JWSFixtures.foreign]))
        #expect(both.isValid)
        #expect(both.tokens.first?.nested.first?.findings.contains { $0.code == "jws-nested-signer-differs" } == true)
    }

    @Test func base64urlRoundTripsAndReportsAnomalies() throws {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Base64URL.encode(bytes)
            guard case .success(let decoded) = Base64URL.decode(Array(text.utf8)[...]) else {
                Issue.record("\(text) does not decode")
                continue
            }
            #expect(decoded.bytes == bytes)
            #expect(decoded.anomalies.isEmpty)
        }
        guard case .success(let odd) = Base64URL.decode(Array("QR==".utf8)[...]) else {
            Issue.record("QR== does not decode")
            return
        }
        #expect(odd.anomalies.padding == 2)
        #expect(odd.anomalies.nonZeroTrailingBits)
        guard case .failure(.impossibleLength) = Base64URL.decode(Array("QUJDR".utf8)[...]) else {
            Issue.record("a length of 5 decodes")
            return
        }
    }
}

/// `appAppleId` written as `1234.0` or `1.234e3` is 1234, as Apple's libraries decode it (Swift's JSONDecoder into
/// Int64, Python's `==`): a red team's trial saw `app-apple-id-mismatch … is 1234.0, expected 1234`. A string, or a
/// number with a fraction, is not the app's id.
@Suite("appAppleId read as a number")
struct AppAppleIDNumberTests {
    @Test(arguments: [
        ("1234", true), ("1234.0", true), ("1.234e3", true), ("12340E-1", true), ("\"1234\"", true),
        ("1234.5", false), ("\"1234.0\"", false), ("-1234", false), ("1235", false),
    ])
    func anAppAppleIdIsTheNumberItSpells(written: String, matches: Bool) throws {
        let signer = try JWSFixtures.signer()
        let payload =
            #"{"receiptType":"Production","bundleId":"com.example.app","appAppleId":\#(written),"#
            + #""applicationVersion":"1","environment":"Production","signedDate":\#(JWSFixtures.signedDate)}"#
        let expectations = Expectations(bundleID: "com.example.app", appAppleID: "1234", environment: .production)
        let codes = JWSFixtures.codes(
            JWSFixtures.inspect(
                try signer.sign(payload: Array(payload.utf8)), options: JWSFixtures.options(expectations: expectations))
        )
        #expect(codes.contains("app-apple-id-mismatch") == !matches, "\(written): \(codes)")
    }
}

import Foundation
import ReceiptBatch
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptDiff
import ReceiptInput
import ReceiptJWS
import ReceiptModel
import ReceiptRendering
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// One input, one judgement: every real receipt and JWS we ship, pasted in the shapes people produce, is found by
/// the one classifier as the same kind of document, gets from the one entry point `dump`, `verify` and a batch
/// share (`Inspector.inspect`) the verdict and the error codes the clean file gets, and `diff` finds it
/// equal to the document it holds.
@Suite("Pasted shapes: one kind, one verdict")
struct PastedShapesTests {
    static let receipts = Fixtures.realReceiptNames
    static let jwsSamples: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.url("Corpus/jws").path)) ?? []
        return names.filter { $0.hasSuffix(".jws") || $0.hasSuffix(".json") }.sorted()
    }()

    static func jwsAnchors(_ name: String) throws -> TrustAnchors {
        if name.hasPrefix("apple-swift-mock") {
            return try TrustAnchors.load(
                files: ["a", "b"].map { Fixtures.url("Corpus/jws/anchors/apple-swift-mock-test-root-\($0).der").path })
        }
        if name.hasPrefix("apple-swift-xcode") {
            return try TrustAnchors.load(files: [
                Fixtures.url("Corpus/jws/anchors/apple-swift-xcode-storekit-testing.der").path
            ])
        }
        return try TrustAnchors.appleRootG3()
    }

    /// The input as every command judges it.
    static func judged(_ bytes: [UInt8], options: InspectionOptions) -> Inspection {
        Inspector.inspect(InputClassifier.classify(bytes), input: bytes, options: options)
    }

    /// What a verdict rests on: the kind, whether it was read, valid, and the codes of its error findings.
    static func verdict(_ document: Inspection) -> String {
        "\(document.kind) read \(document.readError == nil) valid \(document.isValid) \(document.codes(.error))"
    }

    @Test(arguments: receipts)
    func everyReceiptInEveryShape(_ name: String) throws {
        let der = Fixtures.realReceipt(name)
        let options = InspectionOptions(anchors: try TrustAnchors.appleRoot(), now: 1_795_000_000)
        let clean = Self.judged(der, options: options)
        #expect(clean.readError == nil, "\(name) reads")
        guard let cleanReceipt = clean.receipt else {
            Issue.record("\(name) is not a receipt")
            return
        }
        let shapes = PastedShapes.receipt(der)
        #expect(shapes.count >= 20)
        for (shape, bytes) in shapes {
            let pasted = Self.judged(bytes, options: options)
            #expect(Self.verdict(pasted) == Self.verdict(clean), "\(name), \(shape)")
            // The receipt a verifyReceipt response carries is compared by the response diff, by design.
            guard let receipt = pasted.receipt, shape != "verifyReceipt response" else { continue }
            let diff = ReceiptDiff.compare(
                DiffInput(name: "clean", inspection: cleanReceipt),
                DiffInput(name: shape, inspection: receipt))
            #expect(diff.isEqual, "\(name), \(shape): \(diff.changes.prefix(3).map(\.path))")
        }
    }

    @Test(arguments: jwsSamples)
    func everyJWSInEveryShape(_ name: String) throws {
        let text = String(decoding: Fixtures.bytes("Corpus/jws/" + name), as: UTF8.self)
        var options = InspectionOptions(anchors: try TrustAnchors.appleRoot(), now: 1_795_000_000)
        options.jwsAnchors = .given(try Self.jwsAnchors(name))
        let clean = Self.judged(Array(text.utf8), options: options)
        #expect(clean.kind == .jws && clean.isValid, "\(name): \(clean.codes(.error))")
        let shapes = PastedShapes.jwsDocuments(text)
        #expect(shapes.count >= 20)
        for (shape, bytes, document) in shapes {
            let pasted = Self.judged(bytes, options: options)
            #expect(
                Self.verdict(pasted) == Self.verdict(clean), "\(name), \(shape): \(pasted.readError?.message ?? "")")
            // Diffed against the document the shape holds (the token, or the body around it), as `rcpt diff` does.
            guard let inspection = pasted.jws,
                let held = Self.judged(Array(document.utf8), options: options).jws
            else { continue }
            let diff = JWSComparison.compare(
                JWSDiffInput(name: "document", inspection: held),
                JWSDiffInput(name: shape, inspection: inspection))
            #expect(diff.isEqual, "\(name), \(shape): \(diff.changes.prefix(3).map(\.path))")
        }
    }

    /// Bytes after a receipt are its reader's to report wherever the receipt is found: in a form field or a JSON
    /// string it was once not found at all (exit 2) while the same bytes given raw read as invalid (exit 1).
    @Test func aReceiptWithBytesAfterItIsJudgedAlikeInEveryShape() throws {
        let der = Fixtures.realReceipt(Fixtures.sandboxReceipt) + Array("garbage".utf8)
        let options = InspectionOptions(anchors: try TrustAnchors.appleRoot(), now: 1_795_000_000)
        let raw = Self.judged(der, options: options)
        #expect(raw.readError == nil && !raw.isValid)
        let b64 = Data(der).base64EncodedString()
        for shape in [
            "receipt-data=\(PastedShapes.percentEncoded(b64))&password=x", #"{"level":"info","body":"\#(b64)"}"#,
        ] {
            let pasted = Self.judged(Array(shape.utf8), options: options)
            #expect(Self.verdict(pasted) == Self.verdict(raw), "\(shape.prefix(30))")
        }
    }

    /// A token written in the standard base64 alphabet is read, and its alphabet named, wherever it is: in log text
    /// the search once stopped at its first `+` or `/` and found no token (exit 2).
    @Test func aTokenInTheOtherAlphabetIsJudgedAlikeInLogText() throws {
        let token = String(decoding: Fixtures.bytes("Corpus/jws/gopay-txn-2000000184445477-sandbox.jws"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let standard = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        try #require(standard != token)
        let options = InspectionOptions(anchors: try TrustAnchors.appleRoot(), now: 1_795_000_000)
        let alone = Self.judged(Array(standard.utf8), options: options)
        #expect(alone.kind == .jws && alone.readError == nil)
        let logged = Self.judged(Array("INFO webhook body token=\(standard) end\n".utf8), options: options)
        #expect(Self.verdict(logged) == Self.verdict(alone))
    }

    /// What nothing can be found in is refused with what was looked for, and never dug into forever.
    @Test func nothingFoundSaysWhatWasLookedFor() {
        for text in [
            "hello, here is my receipt: none", "receipt=&password=x", String(repeating: "{", count: 100_000),
            String(repeating: "%25", count: 10_000), String(repeating: "MI", count: 50_000),
        ] {
            let classified = InputClassifier.classify(Array(text.utf8))
            #expect(classified.kind == .receipt)
            if case .failure(let error) = InputDecoder.decode(classified.bytes) {
                #expect(!error.code.isEmpty)
            }
        }
    }

    /// A token broken over lines at places no wrapping explains, after a label, is refused with what to do (a
    /// support engineer's trial: "not-a-receipt" and no hint).
    @Test func aTokenBrokenAtIrregularPlacesIsNamed() {
        let token = String(decoding: Fixtures.bytes("Corpus/jws/gopay-txn-2000000004047119-sandbox.jws"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let cut = token.index(token.startIndex, offsetBy: 600)
        let text = "token:\n" + token[..<cut] + "\n" + token[cut...] + "\n"
        let classified = InputClassifier.classify(Array(text.utf8))
        #expect(
            classified.refusal?.message.contains("token broken over lines") == true,
            "\(classified.refusal?.message ?? "read")")
    }

    /// A refusal on purpose is never dug past: a verifyReceipt body naming receipt-data twice stays refused.
    @Test func aDeliberateRefusalStands() {
        let b = Data(Fixtures.realReceipt(Fixtures.sandboxReceipt)).base64EncodedString()
        let body = Array(#"{"receipt-data":"\#(b)","receipt-data":"\#(b)"}"#.utf8)
        let classified = InputClassifier.classify(body)
        #expect(classified.bytes == body)
        #expect(classified.findings.isEmpty)
        guard case .failure(let error) = InputDecoder.decode(classified.bytes) else {
            Issue.record("a body with two receipt-data members was read")
            return
        }
        #expect(error.code == "json-duplicate-receipt-data")
    }
}

/// Hostile text through the classifier: bounded work (each byte looked at a bounded number of times per layer, at
/// most four layers), never a crash.
@Suite("Classifier on hostile text")
struct ClassifierHostileTests {
    @Test(arguments: ["MI+", "eyJ.", "{\"a\":", "%25", "eyJ\n", "MI\nMI", "receipt-data=", "[\"", "\u{00A0}"])
    func repeatedPatternsAreLinear(_ unit: String) {
        let text = Array(String(repeating: unit, count: 200_000).utf8)
        let classified = InputClassifier.classify(text)
        #expect(classified.findings.count <= InputClassifier.maximumLayers)
    }

    @Test func randomBytesNeverCrash() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 2, 3, 64, 1_000, 70_000] {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                _ = InputClassifier.classify(bytes)
                let alphabet: [UInt8] = [0x4D, 0x49, 0x65, 0x79, 0x4A, 0x2E, 0x7B, 0x7D, 0x25, 0x0A]
                let text = bytes.map { alphabet[Int($0) % alphabet.count] }
                _ = InputClassifier.classify(text)
            }
        }
    }
}

/// What a second red team found in the classifier (session 6): an input holding two documents, or copies readers
/// take differently, is refused, never half-read; and ordinary pastes it missed are found.
@Suite("Classifier: ambiguity refused, ordinary pastes found")
struct ClassifierAmbiguityTests {
    static let genuine = Fixtures.realReceipt(Fixtures.sandboxReceipt)
    static let forged: [UInt8] = {
        var bytes = genuine
        bytes[0x60] ^= 0x01
        return bytes
    }()
    static let g = Data(genuine).base64EncodedString()
    static let f = Data(forged).base64EncodedString()
    static let token = String(
        decoding: Fixtures.bytes("Corpus/jws/gopay-txn-2000000004047119-sandbox.jws"), as: UTF8.self
    )
    .trimmingCharacters(in: .whitespacesAndNewlines)
    static let forgedToken: String = {
        let parts = token.split(separator: ".").map(String.init)
        let payload = Base64URL.encode(
            Array(
                #"{"bundleId":"com.audaos.audarecorder","productId":"lifetime","signedDate":1646387008254,"environment":"Sandbox","transactionId":"1"}"#
                    .utf8))
        return parts[0] + "." + payload + "." + parts[2]
    }()

    static func verdict(_ text: String) throws -> (kind: DocumentKind, readable: Bool, valid: Bool, refusal: String?) {
        let classified = InputClassifier.classify(Array(text.utf8))
        if let refusal = classified.refusal { return (classified.kind, false, false, refusal.code) }
        switch classified.kind {
        case .receipt:
            let inspection = ReceiptInspector.inspect(
                classified.bytes, options: InspectionOptions(anchors: try TrustAnchors.appleRoot()))
            return (.receipt, inspection.readError == nil, inspection.isValid, nil)
        case .jws:
            let inspection = JWSInspector.inspect(
                classified.bytes,
                options: InspectionOptions(
                    anchors: try TrustAnchors.appleRootG3(), now: 1_795_000_000), read: classified.jws)
            return (.jws, inspection.readError == nil, inspection.isValid, nil)
        }
    }

    static let ambiguous: [(String, String)] = [
        (
            "a form field given twice",
            "receipt-data=\(PastedShapes.percentEncoded(g))&receipt-data=\(PastedShapes.percentEncoded(f))"
        ),
        ("a signedPayload field given twice", "signedPayload=\(token)&signedPayload=\(forgedToken)"),
        ("the field a server reads holds nothing", "receipt-data=AAAA&password=\(PastedShapes.percentEncoded(g))"),
        ("an empty receipt-data", "receipt-data=&password=\(PastedShapes.percentEncoded(g))"),
        ("two receipts in text", "Receipt:\n\(g)\nand another:\n\(f)\n"),
        ("a receipt and a JWS in text", "\(g)\n\(forgedToken)\n"),
        ("two tokens in a log line", "INFO token=\(token) other=\(forgedToken)"),
        (
            "a JSON name given twice",
            #"{"receipt":"\#(g)","receipt":"-----BEGIN PKCS7-----\n\#(f)\n-----END PKCS7-----"}"#
        ),
        ("two JSON strings holding documents", #"{"a":"\#(g)","b":"\#(f)"}"#),
        // A field name percent-encoded is the field a server decodes; a document in any other field, as in JSON,
        // must be the same one (a red team's trial: both forms read the first receipt, valid).
        (
            "a form field given twice, once percent-encoded",
            "receipt-data=\(PastedShapes.percentEncoded(g))&receipt%2Ddata=\(PastedShapes.percentEncoded(f))"
        ),
        (
            "another receipt in another form field",
            "receipt-data=\(PastedShapes.percentEncoded(g))&note=\(PastedShapes.percentEncoded(f))"
        ),
        // A second token after a line break and a dot, a `<br>` and a dot, or mail quoting: left out, it was a
        // REFUND notification status never saw (a red team's trial, session 28: OWNED, exit 0).
        ("a second token after a line break and a dot", "\(token)\n.\(forgedToken)\n"),
        ("a second token after <br> and a dot", "\(token)<br>.\(forgedToken)"),
        ("a second token after a quoted dot", "> \(token)\n> .\(forgedToken)\n"),
        // Two wrapped receipts whose short last lines end in base64's padding were read as an e-mail's
        // quoted-printable with two soft breaks, and judged as one receipt with trailing bytes (session 28).
        (
            "two wrapped receipts ending in padding, 64 wide",
            PastedShapes.wrapped(padded.0, every: 64) + "\n" + PastedShapes.wrapped(padded.1, every: 64) + "\n"
        ),
        (
            "two wrapped receipts ending in padding, 76 wide, CRLF",
            PastedShapes.wrapped(padded.2, every: 76, separator: "\r\n") + "\r\n"
                + PastedShapes.wrapped(padded.0, every: 76, separator: "\r\n") + "\r\n"
        ),
    ]

    /// Real receipts whose base64 ends in `=` padding (old readings: one invalid receipt; "not a receipt").
    static let padded = (
        Data(Fixtures.realReceipt("appreceiptvalidator-hannes_bear_intro_trial.receipt")).base64EncodedString(),
        Data(Fixtures.realReceipt("kvitto-receipt.receipt")).base64EncodedString(),
        Data(Fixtures.realReceipt("revenuecat-receiptsample1.receipt")).base64EncodedString()
    )

    @Test(arguments: ambiguous.map(\.0))
    func twoDocumentsOrDisagreeingCopiesAreRefused(_ name: String) throws {
        let text = try #require(Self.ambiguous.first { $0.0 == name }?.1)
        let result = try Self.verdict(text)
        #expect(!result.valid, "\(name)")
        #expect(result.refusal == "input-ambiguous", "\(name): \(String(describing: result.refusal))")
        // Documents were found: a directory scan judges the file (unreadable), never skips it as holding none.
        #expect(InputClassifier.classify(Array(text.utf8)).holdsDocuments, "\(name)")
    }

    /// A token damaged inside (a character outside base64url, a space, a part cut short) is a JWS the JWS reader
    /// refuses, whether it is the whole input or a notification's `signedPayload`: the same text, the same error
    /// code, and a document a directory scan judges rather than skips.
    @Test(arguments: [("a '!' in the header", 40), ("a space in the payload", 3_000)])
    func aDamagedTokenIsAJWSWhereverItStands(_ name: String, _ position: Int) throws {
        var bytes = Array(Self.token.utf8)
        let at = position >= 0 ? position : bytes.count + position
        bytes[at] = name.contains("space") ? 0x20 : UInt8(ascii: "!")
        let alone = InputClassifier.classify(bytes)
        #expect(alone.kind == .jws, "\(name)")
        #expect(alone.isDocument, "\(name)")
        guard case .failure(let error)? = alone.jws else {
            Issue.record("\(name): the damaged token was read")
            return
        }
        let carried = Array((#"{"signedPayload":""# + String(decoding: bytes, as: UTF8.self) + #""}"#).utf8)
        let inNotification = JWSInput.read(carried)
        var codes: [ErrorCode] = []
        switch inNotification {
        case .failure(let refused): codes = [refused.kind]
        case .success: codes = []
        }
        #expect(codes == [error.kind], "\(name): alone \(error.code), in a notification \(codes.map(\.rawValue))")
    }

    /// Text that merely starts like a token and then says something else is dug into, not taken for a damaged
    /// token: the genuine token pasted with a note after it is found and read.
    @Test func aTokenWithANoteAfterItIsStillFound() throws {
        let classified = InputClassifier.classify(Array((Self.token + " is the token the app sent. Thanks!").utf8))
        #expect(classified.kind == .jws)
        guard case .success? = classified.jws else {
            Issue.record("the token before the note was not read: \(String(describing: classified.jws))")
            return
        }
    }

    /// A base64 receipt cut short reads as a truncated receipt at every length, including the one in four that
    /// ends a character into a 4-character group (a length no base64 text has).
    @Test func aBase64ReceiptCutShortIsTruncatedAtEveryLength() throws {
        var codes: Set<String> = []
        for length in 2_000..<2_008 {
            let cut = Array(Self.g.utf8.prefix(length))
            let classified = InputClassifier.classify(cut)
            #expect(classified.refusal == nil, "\(length)")
            let inspection = ReceiptInspector.inspect(
                classified.bytes, options: InspectionOptions(anchors: try TrustAnchors.appleRoot()))
            codes.insert(inspection.readError?.code ?? "read")
        }
        #expect(codes == [ErrorCode.asn1LengthExceedsInput.rawValue], "\(codes)")
    }

    /// A form is split before its escapes are decoded: an escaped '&' never makes a second field.
    @Test func anEscapedAmpersandIsNoField() throws {
        let result = try Self.verdict(
            "receipt-data=\(PastedShapes.percentEncoded(Self.g))%26receipt-data%3D\(PastedShapes.percentEncoded(Self.f))"
        )
        #expect(!result.valid)
    }

    /// In a document with tokens, a token hidden in a JSON string or written as a member's name is judged (and, not
    /// being readable as a token there, makes the document invalid).
    @Test func tokensHiddenInAJWSDocumentAreJudged() throws {
        let inString = try Self.verdict(
            #"{"signedTransactions":["\#(Self.token)"],"extra":"{\"signedPayload\":\"\#(Self.forgedToken)\"}"}"#)
        #expect(inString.kind == .jws && !inString.valid)
        let inName = try Self.verdict(#"{"signedTransactions":["\#(Self.token)"],"\#(Self.forgedToken)":1}"#)
        #expect(inName.kind == .jws && !inName.valid)
    }

    static let found: [(String, String)] = [
        ("a token ending a sentence", "Here is the token: \(token)."),
        (
            "a verifyReceipt body in a log line",
            #"2024-06-01 INFO request body: {"receipt-data":"\#(g)","password":"x"}"#
        ),
        (
            "a full last line, then a signature",
            PastedShapes.wrapped(g + String(repeating: "", count: 0), every: 76) + "\nThanks\n"
        ),
        ("a word starting MI on the line before", "see MIab\n" + PastedShapes.wrapped(g, every: 64) + "\n"),
        (
            "e-mail quoted",
            PastedShapes.wrapped(g, every: 64).split(separator: "\n").map { "> " + $0 }.joined(separator: "\n")
        ),
        (
            "tab-indented",
            PastedShapes.wrapped(g, every: 76).split(separator: "\n").map { "\t" + $0 }.joined(separator: "\n")
        ),
        ("a form with '+' become spaces", "receipt-data=\(g.replacingOccurrences(of: "+", with: " "))&password=x"),
        // What real forms carry beside the receipt is no second document (a reviewer's trial: JSON metadata, a
        // login token and the same receipt encoded another way were "different documents").
        (
            "a form with JSON metadata and a login token",
            "receipt-data=\(PastedShapes.percentEncoded(g))&context=%7B%22user%22%3A42%7D&product_ids=[\"a\",\"b\"]"
                + "&id_token=\(forgedToken)"
        ),
        (
            "a form with the receipt again, encoded otherwise",
            "receipt-data=\(PastedShapes.percentEncoded(g))&receipt=\(g)"
        ),
        // JSON of no document in the text is text around the document, not a second one (session 27: a log line's
        // object, or `{"other":1}` after a notification body, made the input "two documents").
        ("a log line's JSON before a token", #"{"level":"info","msg":"verify"} token: \#(token)"#),
        ("JSON of no document after a receipt", "\(g)\n{\"other\":1}\n"),
        // Broken at its dots, as mail and terminals break long words at punctuation (a support engineer's trial,
        // session 28: unreadable, "byte 10 at offset 4412").
        ("a token broken after its dots", token.split(separator: ".").joined(separator: ".\n") + "\n"),
        ("a token broken before its dots", token.split(separator: ".").joined(separator: "\n.") + "\n"),
        // An HTML mail's or page's `<br>` line breaks (the trial's paste was "two documents").
        ("base64 in HTML with <br>", "<p>" + PastedShapes.wrapped(g, every: 76, separator: "<br>") + "</p>"),
        ("base64 in HTML with <br/> and line breaks", PastedShapes.wrapped(g, every: 76, separator: "<BR/>\r\n")),
        (
            "a token in HTML with <br />",
            "<div>" + PastedShapes.wrapped(token, every: 76, separator: "<br />") + "</div>"
        ),
        // Unpadded base64 before a closing tag: the `<` of `</pre>` was taken for a misread letter (a trial,
        // session 29: "base64-damaged", and skipped in a directory).
        ("unpadded base64 in <pre>", "<pre>\(unpadded)</pre>\n"),
        ("unpadded base64 in a table cell", "<tr><td>\(unpadded)</td></tr>"),
        (
            "a token broken at its dots, mail-quoted, with a note",
            "Token:\n" + token.split(separator: ".").map { "> " + $0 }.joined(separator: ".\n") + "\n> Thanks\n"
        ),
    ]

    /// A real receipt whose base64 has no `=` padding (5 133 bytes, a multiple of three).
    static let unpadded = Data(Fixtures.realReceipt("tpinappreceipt-watch.receipt")).base64EncodedString()

    /// Damaged base64 in markup is a document found damaged: judged unreadable wherever it stands, never passed over
    /// by a directory scan as holding none (it was skipped, and the scan's exit was 0).
    @Test func damagedBase64InMarkupHoldsADocument() {
        let damaged = String(Self.unpadded.prefix(3_000)) + "|" + String(Self.unpadded.dropFirst(3_001))
        let classified = InputClassifier.classify(Array("<pre>\(damaged)</pre>\n".utf8))
        #expect(classified.refusal?.code == "base64-damaged", "\(String(describing: classified.refusal))")
        #expect(classified.holdsDocuments)
        // A refusal names no document (the classifier harness's oracle): the first fix set `isDocument` on it, and
        // CI's fuzzing found a damaged form field within seconds (`classifier-damaged-form-field-refusal.bin`).
        #expect(!classified.isDocument)
        let found = InputClassifier.classify(
            Fixtures.bytes("Corpus/regressions/classifier-damaged-form-field-refusal.bin"))
        #expect(found.refusal == nil || (found.kind == .receipt && !found.isDocument))
    }

    @Test(arguments: found.map(\.0))
    func ordinaryPastesAreFound(_ name: String) throws {
        let text = try #require(Self.found.first { $0.0 == name }?.1)
        let result = try Self.verdict(text)
        #expect(result.readable && result.valid, "\(name): \(result)")
    }

    /// A token followed by a long run of dots, on one line or one a line, is read in linear time: the trailing dots
    /// were dropped one at a time, each counting every dot again (a review of session 28: 300 000 `\n.` lines ran
    /// for minutes).
    @Test func aRunOfDotsAfterATokenIsReadOnce() throws {
        let lines = try Self.verdict(Self.token + String(repeating: "\n.", count: 100_000) + "\n")
        #expect(lines.readable && lines.valid, "\(lines)")
        // On the token's own line the dots are more parts: the token reader refuses it, as it does `A.`.
        let line = try Self.verdict(Self.token + String(repeating: ".", count: 100_000) + "\n")
        #expect(!line.valid, "\(line)")
    }

    /// Offsets in a refusal found inside a layer say where they count from (session 27: "a JWS at offset 0" for a
    /// token at offset 6, inside a form field).
    @Test func aRefusalInsideALayerSaysWhereItsOffsetsCountFrom() {
        let text = Array("token=\(Self.token) receipt=\(Self.g)".utf8)
        let refusal = InputClassifier.classify(text).refusal
        #expect(refusal?.code == "input-ambiguous")
        #expect(
            refusal?.message.contains("offsets from offset 6 of the input") == true, "\(String(describing: refusal))")
    }

    /// The size and digest reported for a pasted document are the input's, not the document's.
    @Test func theReportNamesTheInput() throws {
        let text = Array("Hi,\n\(Self.g)\n-- \nJohn\n".utf8)
        let classified = InputClassifier.classify(text)
        var options = InspectionOptions(anchors: try TrustAnchors.appleRoot())
        options.digestsInput = true
        let inspection = ReceiptInspection.inspect(classified, input: text, options: options)
        #expect(inspection.input.size == text.count)
        #expect(inspection.isValid)
    }
}

import Foundation
import ReceiptJSON
import ReceiptJWS
import ReceiptMutation
import ReceiptSigning
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// The fuzzers' structure-aware JWS mutator: its edits reach what a token means (members, numbers, escapes, nested
/// tokens), they re-encode everything else byte for byte, and with a signer every edit still verifies.
@Suite("JWS structure-aware mutator")
struct JWSStructureMutatorTests {
    static let tokens = [
        "gopay-txn-2000000004047119-sandbox.jws", "gopay-renewal-2000000000842607-sandbox.jws",
        "gopay-notif-DID_RENEW-sandbox.jws", "imdhemy-notif-TEST-sandbox.json",
    ].map { Array(String(decoding: Fixtures.bytes("Corpus/jws/\($0)"), as: UTF8.self).utf8.filter { $0 > 0x20 }) }

    static func payload(_ token: [UInt8]) -> JSONDocument? {
        let parts = token.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, case .success(let decoded) = Base64URL.decode(parts[1]) else { return nil }
        return try? JSONDocument.read(decoded.bytes)
    }

    /// A token's header and payload as JSON (those that decode and read).
    static func headerAndPayload(_ token: [UInt8]) -> [JSONDocument] {
        token.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).prefix(2).compactMap { part in
            guard case .success(let decoded) = Base64URL.decode(part) else { return nil }
            return try? JSONDocument.read(decoded.bytes)
        }
    }

    @Test func aTreeReencodesApplesJSONByteForByte() throws {
        for token in Self.tokens where token.first != UInt8(ascii: "{") {
            let parts = token.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            for part in parts.prefix(2) {
                guard case .success(let decoded) = Base64URL.decode(part) else {
                    Issue.record("a corpus token part does not decode")
                    continue
                }
                #expect(JSONTree(decoded.bytes)?.bytes == decoded.bytes)
            }
        }
        let body = Array(#"{"a":[1,-0,1e3,"\u00e9"],"a":{"b":null}}"#.utf8)
        #expect(JSONTree(body)?.bytes == body)
        #expect(JSONTree(Array("{".utf8)) == nil)
    }

    /// For the harnesses that judge what verified documents mean (`status`), edits mostly keep a document one Apple
    /// could sign: the header as it was, claims of Apple's types, every enumerated claim a documented value, no name
    /// twice.
    @Test func preferringDocumentedValuesKeepsDocumentsApplesShape() {
        let header = Self.tokens[0].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)[0]
        func clean(_ documented: Bool) -> Int {
            var count = 0
            for seed in 0..<1500 {
                var mutator = JWSStructureMutator(seed: UInt64(seed))
                mutator.prefersDocumentedValues = documented
                guard let output = mutator.mutate(Self.tokens[0]), output.starts(with: header + [UInt8(ascii: ".")]),
                    let payload = Self.payload(output), payload.duplicateKeys.isEmpty,
                    AppleClaims.typeFindings(payload, offset: { $0 }).isEmpty
                else { continue }
                let documentedValues = AppleClaims.enumerations.allSatisfy { name, values in
                    guard let member = payload.member(name, of: payload.root) else { return true }
                    return values.contains(payload.text(member))
                }
                if documentedValues { count += 1 }
            }
            return count
        }
        let (documented, free) = (clean(true), clean(false))
        #expect(documented > 900, "\(documented) of 1 500 edits keep Apple's shape")
        #expect(documented * 4 > free * 5, "documented \(documented), free \(free)")
    }

    /// A member whose values Apple enumerates is where readers branch: its scalar is picked more often than one
    /// that is not enumerated (one time in two the pick is among the enumerated ones alone).
    @Test func enumeratedMembersAreEditedMoreOften() {
        let members = (0..<20).map { "\"m\($0)\":\($0)" }.joined(separator: ",")
        let document = Array("{\"environment\":\"Sandbox\",\(members)}".utf8)
        var environment = 0
        var other = 0
        for seed in 0..<3000 {
            var mutator = JWSStructureMutator(seed: UInt64(seed))
            guard let output = mutator.mutate(document), let tree = try? JSONDocument.read(output) else { continue }
            if tree.member("environment", of: tree.root).map({ tree.string($0) != "Sandbox" }) ?? true {
                environment += 1
            }
            if tree.member("m7", of: tree.root).map({ tree.text($0) != "7" }) ?? true { other += 1 }
        }
        #expect(environment > 3 * other, "environment \(environment), m7 \(other)")
    }

    @Test func editsReachTheMeaningOfAToken() throws {
        let transaction = Self.tokens[0]
        var seen: Set<String> = []
        for seed in 0..<3000 {
            var mutator = JWSStructureMutator(seed: UInt64(seed))
            guard let output = mutator.mutate(transaction) else { continue }
            guard let payload = Self.payload(output) else {
                seen.insert("header edited")
                continue
            }
            if !payload.duplicateKeys.isEmpty { seen.insert("duplicate member") }
            if output != transaction, payload.member("bundleId", of: payload.root) == nil { seen.insert("removed") }
            let text = String(decoding: payload.bytes, as: UTF8.self)
            if text.contains("9007199254740993") || text.contains("1e400") { seen.insert("edge number") }
            if text.contains("\\u0000") || text.contains("\\ud800") { seen.insert("escape") }
            if let node = payload.member("bundleId", of: payload.root), payload.nodes[node].kind != .string {
                seen.insert("claim of another type")
            }
        }
        #expect(
            seen == [
                "header edited", "duplicate member", "removed", "edge number", "escape", "claim of another type",
            ])
    }

    @Test func aNestedTokenIsEditedInsideItsCarrier() throws {
        let notification = Self.tokens[2]
        func nested(_ payload: JSONDocument) -> String? {
            payload.member("data", of: payload.root).flatMap { payload.member("signedTransactionInfo", of: $0) }
                .flatMap { payload.string($0) }
        }
        let before = try #require(Self.payload(notification).flatMap(nested))
        var edited = 0
        for seed in 0..<400 {
            var mutator = JWSStructureMutator(seed: UInt64(seed))
            guard let output = mutator.mutate(notification), let payload = Self.payload(output),
                let after = nested(payload)
            else { continue }
            // Still a token, another one: the edit went inside it.
            if after != before, JWSReader.looksLikeCompactJWS(Array(after.utf8)) { edited += 1 }
        }
        #expect(edited > 10)
    }

    /// A fuzzer's byte mutator brings in values the tables lack (libFuzzer: the operands of the code's comparisons);
    /// whatever bytes it gives for a string, the string stays one string and the JSON stays JSON. (Some table edits
    /// break JSON on purpose: `01`, `\x`.)
    @Test func bytesFromAByteMutatorLandInsideValuesAndKeepTheJSONWhole() throws {
        let awkward: [[UInt8]] = [Array("JWT".utf8), Array("a\"b\\".utf8), [0x00, 0x1F, 0x5C], Array("\\u00".utf8)]
        var landed = 0
        var broken = 0
        var outputs = 0
        for seed in 0..<600 {
            var mutator = JWSStructureMutator(seed: UInt64(seed))
            let replacement = awkward[seed % awkward.count]
            mutator.mutateBytes = { _ in replacement }
            guard let output = mutator.mutate(Self.tokens[0]) else { continue }
            outputs += 1
            let parts = output.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            for part in parts.prefix(2) {
                guard case .success(let decoded) = Base64URL.decode(part) else { continue }
                guard let document = try? JSONDocument.read(decoded.bytes) else {
                    broken += 1
                    continue
                }
                if document.nodes.indices.contains(where: { document.string($0) == "JWT" }) { landed += 1 }
            }
        }
        #expect(landed > 0)
        #expect(broken * 5 < outputs, "\(broken) of \(outputs) outputs are not JSON")
    }

    /// A member's value is drawn from what the code compares it with: every value Apple documents for an enumeration
    /// claim (`AppleClaims.enumerations`) is reached within a few thousand edits of one transaction, and a header
    /// member's JOSE values too.
    @Test func aMembersValueIsDrawnFromWhatItIsComparedWith() throws {
        let transaction = Self.tokens[0]
        var environments: Set<String> = []
        var ownership: Set<String> = []
        var algorithms: Set<String> = []
        for seed in 0..<6000 {
            var mutator = JWSStructureMutator(seed: UInt64(seed))
            guard let output = mutator.mutate(transaction) else { continue }
            for json in JWSStructureMutatorTests.headerAndPayload(output) {
                for child in json.children(of: json.root) {
                    guard let value = json.string(child) else { continue }
                    switch json.key(child) {
                    case "environment": environments.insert(value)
                    case "inAppOwnershipType": ownership.insert(value)
                    case "alg": algorithms.insert(value)
                    default: break
                    }
                }
            }
        }
        #expect(environments.isSuperset(of: ["Production", "Sandbox", "Xcode", "LocalTesting"]))
        #expect(ownership.isSuperset(of: ["PURCHASED", "FAMILY_SHARED"]))
        #expect(algorithms.isSuperset(of: ["ES256", "none", "HS256", "ES384"]))
    }

    @Test func theSameSeedMakesTheSameEdit() {
        var first = JWSStructureMutator(seed: 7)
        var second = JWSStructureMutator(seed: 7)
        for token in Self.tokens {
            #expect(first.mutate(token) == second.mutate(token))
        }
    }

    @Test func withASignerEveryEditedTokenVerifies() throws {
        let kit = try #require(JWSMutationTests.kit)
        let signer = JWSSigner(authority: kit.authority)
        let options = InspectionOptions(anchors: TrustAnchors([kit.authority.root]), time: .signed)
        // As the jws-verify seeds are: Apple's token signed again by the TEST-ONLY chain.
        let seed = Array(try JWSMutationContext.baseline(of: Self.tokens[0], kit: kit).signed().utf8)
        var verified = 0
        var tokens = 0
        for number in 0..<200 {
            var mutator = JWSStructureMutator(seed: UInt64(number), signer: signer)
            guard let output = mutator.mutate(seed) else { continue }
            // A header edit may take away what verifies it (alg, x5c); a payload edit never may.
            let header = output.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).first
            guard header.map(Array.init) == seed.split(separator: UInt8(ascii: ".")).first.map(Array.init) else {
                continue
            }
            let inspection = JWSInspector.inspect(output, options: options)
            guard let top = inspection.tokens.first else { continue }
            tokens += 1
            if top.signature == .valid { verified += 1 }
        }
        #expect(tokens > 120)
        #expect(verified == tokens)
    }

    @Test func aCrossoverGivesOneTokenAMemberOfAnother() throws {
        var mutator = JWSStructureMutator(seed: 3)
        let crossed = mutator.crossover(Self.tokens[0], Self.tokens[1])
        let output = try #require(crossed)
        let payload = try #require(Self.payload(output))
        let renewalNames = [
            "autoRenewStatus", "autoRenewProductId", "originalTransactionId", "productId", "signedDate",
            "environment",
        ]
        #expect(renewalNames.contains { payload.member($0, of: payload.root) != nil })
        #expect(
            payload.children(of: payload.root).count == (Self.payload(Self.tokens[0])?.children(of: 0).count ?? 0) + 1)
    }

    @Test func aDocumentedCrossoverPutsAMemberInThePlaceOfItsName() throws {
        let transaction = try #require(Self.payload(Self.tokens[0]))
        let renewal = try #require(Self.payload(Self.tokens[1]))
        let names = { (document: JSONDocument) in
            Set(document.children(of: document.root).compactMap { document.key($0) })
        }
        var replaced = 0
        var added = 0
        for seed in 0..<64 as Range<UInt64> {
            var mutator = JWSStructureMutator(seed: seed)
            mutator.prefersDocumentedValues = true
            let crossed = mutator.crossover(Self.tokens[0], Self.tokens[1])
            let payload = try #require(crossed.flatMap(Self.payload))
            // Never a duplicate name; every member of the input kept, at most one more, from the other input.
            #expect(payload.duplicateKeys.isEmpty)
            #expect(names(payload).isSuperset(of: names(transaction)))
            let count = payload.children(of: payload.root).count
            let before = transaction.children(of: transaction.root).count
            if count == before + 1 {
                let new = try #require(names(payload).subtracting(names(transaction)).first)
                #expect(names(renewal).contains(new))
                added += 1
            } else {
                #expect(count == before)
                let changed = names(transaction).filter { name in
                    payload.member(name, of: payload.root).map { payload.text($0) }
                        != transaction.member(name, of: transaction.root).map { transaction.text($0) }
                }
                #expect(changed.count == 1)
                // In the place of the member of its name: the members' order kept.
                let order = { (document: JSONDocument) in
                    document.children(of: document.root).compactMap { document.key($0) }
                }
                #expect(order(payload) == order(transaction))
                if let name = changed.first {
                    #expect(
                        payload.member(name, of: payload.root).map { payload.text($0) }
                            == renewal.member(name, of: renewal.root).map { renewal.text($0) })
                    replaced += 1
                }
            }
        }
        #expect(replaced > 32)
        #expect(added > 4)
    }

    @Test(arguments: [[], Array("a.b".utf8), Array("{".utf8), Array("x.y.z".utf8), [UInt8](repeating: 0x2E, count: 9)])
    func inputThatIsNoTokenIsLeftToTheByteMutator(_ input: [UInt8]) {
        var mutator = JWSStructureMutator(seed: 1)
        #expect(mutator.mutate(input) == nil)
    }
}

/// The words a fuzzer's dictionary holds reach the structure-aware mutator: read from libFuzzer's `-dict=` file (the
/// committed dictionary and the words harvested from the harness's comparisons) and put where code compares them.
@Suite("libFuzzer dictionary words")
struct LibFuzzerDictionaryTests {
    @Test func entriesAreReadWithTheirEscapesAndCommentsSkipped() {
        let text = Array(
            """
            # a comment="not a word"
            kid="rcpt-1"
            quote="a\\"b\\\\c"
            hex="\\x00\\x41\\xfF"
            broken="\\x4"
            empty=""

            "no name"
            """.utf8)
        let entries = LibFuzzerDictionary.entries(text)
        #expect(
            entries.map(\.word) == [
                Array("rcpt-1".utf8), Array("a\"b\\c".utf8), [0x00, 0x41, 0xFF], Array("no name".utf8),
            ])
        #expect(entries.map(\.name) == ["kid", "quote", "hex", ""])
        let arguments = ["jws", "-max_len=10", "-dict=/d.dict", "corpus"]
        #expect(LibFuzzerDictionary.entries(arguments: arguments) { $0 == "/d.dict" ? text : nil }.count == 4)
        #expect(LibFuzzerDictionary.entries(arguments: ["jws"]) { _ in text }.isEmpty)
    }

    /// A header member's value (a member the token lacks), a claim's number and a member name the code compares with
    /// are each put in place within some thousands of edits of one transaction.
    @Test func aComparedWordBecomesAValueANumberAndAName() throws {
        let transaction = JWSStructureMutatorTests.tokens[0]
        // As scripts/fuzz-words.py writes them: a word compared next after a member's name is that member's value.
        let dictionary = """
            cmp_0="offerPeriod"
            cmp_1="9999"
            value_of_kid_0="rcpt-1"
            value_of_quantity_1="4242"
            """
        let words = JWSStructureMutator.Words(LibFuzzerDictionary.entries(Array(dictionary.utf8)))
        var seen: Set<String> = []
        for seed in 0..<20000 where seen.count < 3 {
            var mutator = JWSStructureMutator(seed: UInt64(seed))
            mutator.words = words
            guard let output = mutator.mutate(transaction) else { continue }
            for json in JWSStructureMutatorTests.headerAndPayload(output) {
                for child in json.children(of: json.root) {
                    if json.key(child) == "kid", json.string(child) == "rcpt-1" { seen.insert("header value") }
                    if json.key(child) == "quantity", json.text(child) == "4242" { seen.insert("claim number") }
                    if json.key(child) == "offerPeriod" { seen.insert("name") }
                }
            }
        }
        #expect(seen == ["header value", "claim number", "name"])
    }
}

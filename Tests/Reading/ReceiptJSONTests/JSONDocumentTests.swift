import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptModel
import Testing

@testable import ReceiptJSON

@Suite("JSON reader")
struct JSONDocumentTests {
    static func read(_ text: String, limits: JSONLimits = JSONLimits()) throws(JSONError) -> JSONDocument {
        try JSONDocument.read(Array(text.utf8), limits: limits)
    }

    @Test func readsNodesInDocumentOrderWithOffsetsDepthsAndNames() throws {
        let document = try Self.read(#" {"a": [1, -2.5e3, "x"], "b": {"c": null}, "d": true} "#)
        #expect(document.nodes.map(\.kind) == [.object, .array, .number, .number, .string, .object, .null, .true])
        #expect(document.nodes.map(\.depth) == [0, 1, 2, 2, 2, 1, 2, 1])
        #expect(document.nodes[0].start == 1)
        #expect(document.nodes[0].end == 53)
        #expect(document.text(3) == "-2.5e3")
        #expect(document.key(1) == "a")
        #expect(document.key(2) == nil)
        #expect(document.children(of: 0) == [1, 5, 7])
        #expect(document.children(of: 1) == [2, 3, 4])
        #expect(document.string(4) == "x")
        #expect(document.member("b", of: 0) == 5)
        #expect(document.member("z", of: 0) == nil)
    }

    @Test func keepsNumberTextExactly() throws {
        let document = try Self.read("[12345678901234567890123, 1.0, 0.000001e-7, -0]")
        #expect(
            document.children(of: 0).map { document.text($0) } == [
                "12345678901234567890123", "1.0", "0.000001e-7", "-0",
            ])
    }

    @Test func unescapesStringsAndNames() throws {
        let document = try Self.read(#"{"receipt\u002ddata": "a\"b\\c\/d\n\u00e9\ud83d\ude00\ud800x"}"#)
        #expect(document.key(1) == "receipt-data")
        #expect(document.string(1) == "a\"b\\c/d\né😀\u{FFFD}x")
    }

    @Test func reportsDuplicateNamesAndReadsTheLastCopy() throws {
        let document = try Self.read(#"{"bundle_id": "good", "x": 1, "bundle\u005fid": "evil"}"#)
        #expect(document.duplicateKeys == [JSONDuplicateKey(name: "bundle_id", first: 1, duplicate: 3)])
        #expect(document.string(try #require(document.member("bundle_id", of: 0))) == "evil")
    }

    /// Duplicate names and names equal but for case, as one table per object keyed by the case-folded name finds
    /// them (the reader's rule, written plainly): the reader compares few plain names in place and switches to
    /// tables at the first escaped or non-ASCII name or past sixteen names; both must agree on every object.
    @Test func findsDuplicateNamesAsTheTableRuleDoes() throws {
        let spellings = [
            "a", "A", "b", "B", "ab", "aB", "Ab", "\\u0061", "\\u0041b", "\u{e9}", "\u{c9}", "x_1", "X_1",
            "long_name_here",
            "Long_Name_Here",
            // Letters outside ASCII that Go or .NET match with an ASCII one (a red team's trial, session 28).
            "s", "S", "\u{17F}", "\\u017f", "k", "\u{212A}", "i", "\u{131}", "\u{130}",
        ]
        var state: UInt64 = 11
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        for trial in 0..<400 {
            let count = next(40)
            let names = (0..<count).map { _ in spellings[trial % 3 == 0 ? next(spellings.count) : next(7)] }
            let text = "{" + names.enumerated().map { "\"\($0.element)\":\($0.offset)" }.joined(separator: ",") + "}"
            let document = try Self.read(text)
            var table: [String: Int] = [:]
            var variants: [String: Int] = [:]
            var duplicates: [JSONDuplicateKey] = []
            var caseFolded: [JSONDuplicateKey] = []
            for child in document.children(of: document.root) {
                let name = try #require(document.key(child))
                let asciiFolded = String(
                    decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
                let outside: [Unicode.Scalar: Unicode.Scalar] = ["\u{17F}": "s", "\u{212A}": "k", "\u{131}": "i"]
                var folded = ""
                folded.unicodeScalars.append(contentsOf: asciiFolded.unicodeScalars.map { outside[$0] ?? $0 })
                if let first = table[folded] {
                    if document.key(first) == name {
                        duplicates.append(JSONDuplicateKey(name: name, first: first, duplicate: child))
                    } else if let spelled = variants[name] {
                        duplicates.append(JSONDuplicateKey(name: name, first: spelled, duplicate: child))
                    } else {
                        caseFolded.append(JSONDuplicateKey(name: name, first: first, duplicate: child))
                        variants[name] = child
                    }
                } else {
                    table[folded] = child
                }
            }
            #expect(document.duplicateKeys == duplicates, "\(text)")
            #expect(document.caseFoldedDuplicateKeys == caseFolded, "\(text)")
        }
    }

    @Test(arguments: [
        ("", ErrorCode.jsonEmpty, 0),
        ("   ", .jsonEmpty, 3),
        ("{", .jsonTruncated, 1),
        ("{\"a\" 1}", .jsonUnexpectedByte, 5),
        ("{\"a\":1,}", .jsonUnexpectedByte, 7),
        ("[1,]", .jsonUnexpectedByte, 3),
        ("[1 2]", .jsonUnexpectedByte, 3),
        ("{1:2}", .jsonUnexpectedByte, 1),
        ("01", .jsonInvalidNumber, 0),
        ("-", .jsonInvalidNumber, 0),
        ("1.", .jsonInvalidNumber, 2),
        ("1e+", .jsonInvalidNumber, 3),
        ("\"a\\qb\"", .jsonInvalidString, 2),
        ("\"a\u{01}\"", .jsonInvalidString, 2),
        ("\"\\u12g4\"", .jsonInvalidString, 1),
        ("\"abc", .jsonTruncated, 0),
        ("tru", .jsonTruncated, 0),
        ("trve", .jsonUnexpectedByte, 2),
        ("nul", .jsonTruncated, 0),
        ("{} {}", .jsonTrailingBytes, 3),
        ("[1]]", .jsonTrailingBytes, 3),
        ("'a'", .jsonUnexpectedByte, 0),
        ("\u{FEFF}{}", .jsonUnexpectedByte, 0),
    ])
    func rejectsMalformedTextWithAnOffset(text: String, code: ErrorCode, offset: Int) {
        #expect {
            try Self.read(text)
        } throws: { error in
            guard let error = error as? JSONError else { return false }
            return error.kind == code && error.offset == offset && !error.message.isEmpty
        }
    }

    @Test func rejectsInvalidUTF8InStrings() {
        #expect(throws: JSONError.self) { try JSONDocument.read([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONError.self) { try JSONDocument.read([0x22, 0xED, 0xA0, 0x80, 0x22]) }
    }

    /// Every proper prefix of a document fails; the whole one reads.
    @Test func dripFedDocumentFailsUntilItsLastByte() throws {
        let bytes = Array(#"{"status":0,"receipt":{"in_app":[{"quantity":"1","ok":true,"n":null,"d":-1.5e2}]}}"#.utf8)
        for length in 0..<bytes.count {
            #expect(throws: JSONError.self, "prefix of \(length) bytes") {
                try JSONDocument.read(Array(bytes[..<length]))
            }
        }
        #expect(try JSONDocument.read(bytes).nodes.count == 9)
    }

    @Test func deepNestingStopsAtTheDepthLimitWithoutRecursion() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect {
            try JSONDocument.read(deep)
        } throws: { ($0 as? JSONError)?.kind == .jsonDepthLimit && ($0 as? JSONError)?.offset == 128 }
    }

    @Test func limitsNodesAndSize() {
        let many = Array(("[" + String(repeating: "0,", count: 100) + "0]").utf8)
        #expect { try JSONDocument.read(many, limits: JSONLimits(maximumNodes: 50)) } throws: {
            ($0 as? JSONError)?.kind == .jsonNodeLimit
        }
        #expect { try JSONDocument.read(many, limits: JSONLimits(maximumSize: 10)) } throws: {
            ($0 as? JSONError)?.kind == .jsonTooLarge
        }
    }

    /// Random bytes and random mutations of a document never crash or hang the reader.
    @Test func randomInputNeverCrashes() {
        var generator = SplitMix64(seed: 0x5EED)
        let seed = Array(#"{"a":[1,2,{"b":"c\u0041"}],"d":-0.5e1,"e":[true,false,null]}"#.utf8)
        var readCount = 0
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int(generator.next() % 40)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            } else {
                bytes = seed
                for _ in 0..<1 + Int(generator.next() % 4) {
                    let position = Int(generator.next() % UInt64(bytes.count))
                    let pool = Array(#"{}[]",:0-e.\"tfn "#.utf8)
                    bytes[position] = pool[Int(generator.next() % UInt64(pool.count))]
                }
            }
            if let document = try? JSONDocument.read(bytes) {
                readCount += 1
                for node in document.nodes.indices {
                    _ = document.key(node)
                    _ = document.string(node)
                    #expect(document.nodes[node].end <= bytes.count)
                }
            }
        }
        #expect(readCount > 0)
    }

    /// A member is found by its name whatever the key's spelling: plain, escaped (`\u0049` for `I`), or not ASCII
    /// (compared as Swift compares text); the last copy of a repeated name is the one read.
    @Test func findsMembersByNameHoweverTheKeyIsSpelled() throws {
        let document = try JSONDocument.read(
            Array(#"{"productId":1,"product\u0049d":2,"bundleId":3,"bündleId":4,"\u0062undleId":5,"x":6}"#.utf8))
        let root = document.root
        #expect(document.member("productId", of: root).map(document.text) == "2")
        #expect(document.member("bundleId", of: root).map(document.text) == "5")
        #expect(document.member("bündleId", of: root).map(document.text) == "4")
        #expect(document.member("productID", of: root) == nil)
        #expect(document.member("", of: root) == nil)
        #expect(document.member("x", of: root).map(document.text) == "6")
        // Only plain names (compared by their bytes alone): the same answers.
        let plain = try JSONDocument.read(Array(#"{"productId":1,"productIc":2,"bundleId":3,"productId":7}"#.utf8))
        #expect(plain.member("productId", of: plain.root).map(plain.text) == "7")
        #expect(plain.member("productIc", of: plain.root).map(plain.text) == "2")
        #expect(plain.member("bundleId", of: plain.root).map(plain.text) == "3")
        #expect(plain.member("bündleId", of: plain.root) == nil)
        #expect(plain.member("product", of: plain.root) == nil)
    }
}

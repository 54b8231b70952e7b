import ReceiptJSON
import ReceiptTestSupport
import Testing

@testable import ReceiptDiff

@Suite("--ignore patterns")
struct IgnorePatternTests {
    /// Paths as the diff builds them, attribute segments with their field name.
    static func path(_ text: String) -> DiffPath {
        let aliases = [
            "type=12#0": "receipt_creation_date", "type=12#1": "receipt_creation_date",
            "type=2#0": "bundle_id",
        ]
        var parts: [Substring] = []
        var start = text.startIndex
        var depth = 0
        for index in text.indices {
            switch text[index] {
            case "[": depth += 1
            case "]": depth -= 1
            case "." where depth == 0:
                parts.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
        }
        parts.append(text[start...])
        return DiffPath(
            parts.map { part in
                guard let open = part.firstIndex(of: "["), part.last == "]" else { return .init(String(part)) }
                let selector = String(part[part.index(after: open)..<part.index(before: part.endIndex)])
                return .init(String(part[..<open]), selector: selector, alias: aliases[selector])
            })
    }

    static let cases: [(pattern: String, path: String, matches: Bool)] = [
        ("in_app[*].purchase_date", "in_app[transaction_id=1].purchase_date", true),
        ("in_app[*].purchase_date", "in_app[transaction_id=1].purchase_date.version", true),
        ("in_app[*].purchase_date", "in_app[transaction_id=1].original_purchase_date", false),
        ("in_app[*].purchase_date", "in_app[transaction_id=1]", false),
        ("in_app.purchase_date", "in_app[index=3].purchase_date", true),
        ("purchase_date", "in_app[transaction_id=1].purchase_date", true),
        ("purchase_date", "in_app[transaction_id=1].original_purchase_date", false),
        ("receipt_creation_date", "attributes[type=12#0].value", true),
        ("receipt_creation_date", "attributes[type=2#0].value", false),
        ("attributes[type=12]", "attributes[type=12#1].value", true),
        ("attributes[type=1]", "attributes[type=12#0].value", false),
        ("attributes[type=12#1]", "attributes[type=12#0].value", false),
        ("attributes[type=12#*]", "attributes[type=12#0].version", true),
        ("signers[*].signature", "signers[0].signature", true),
        ("signers[*].signature", "verification.signature", false),
        ("signature", "verification.signature", true),
        ("certificates", "certificates[sha256=ab12].notAfter", true),
        ("in_app[transaction_id=10*]", "in_app[transaction_id=1000].expires_date", true),
        ("in_app[transaction_id=10*]", "in_app[transaction_id=2000].expires_date", false),
        ("in_app", "payload.encoding.unsortedSet", false),
        ("extensions[oid=2.5.29.*]", "certificates[sha256=ab].extensions[oid=2.5.29.19].value", true),
        ("*.encoding", "container.encoding.indefiniteLength", true),
        ("input", "input.sha256", true),
    ]

    @Test(arguments: cases)
    func matchesPathsAndEverythingBelowThem(_ pattern: String, _ path: String, _ matches: Bool) throws {
        #expect(try IgnorePattern(pattern).matches(Self.path(path)) == matches)
    }

    @Test(arguments: ["", "a..b", "a[", "a]b", "a[b]c", "[x]", "a.", ".a", "a[b][c]"])
    func rejectsMalformedPatterns(_ pattern: String) {
        #expect(throws: IgnorePattern.ParseError.self) { try IgnorePattern(pattern) }
    }

    @Test func quotedSelectorsMayHoldBracketsAndDots() throws {
        let pattern = try IgnorePattern(#"in_app[transaction_id="a]b.c"].quantity"#)
        let path = DiffPath([.init("in_app", selector: #"transaction_id="a]b.c""#), .init("quantity")])
        #expect(pattern.matches(path))
    }

    @Test func ignoringTheCreationDateMakesTwoDaysOfOneReceiptEqual() throws {
        let chain = try #require(TestChain.shared)
        let a = try chain.sign(TestPayload.subscription().encoded())
        let b = try chain.sign(TestPayload.subscription(created: "2024-06-02T08:00:00Z").encoded())
        let plain = try Diffing.diff(a, b)
        #expect(Diffing.paths(plain) == ["signers[0].signature", "attributes[type=12#0].value"])
        let ignoring = try Diffing.diff(
            a, b,
            options: DiffOptions(
                ignore: try Diffing.patterns(["receipt_creation_date", "signers[*].signature"])))
        #expect(ignoring.isEqual)
        #expect(ignoring.ignoredCount == 2)
    }
}

/// One path type: a JSON member whose name holds a dot is one segment from the JSON reader to the diff's path, and
/// `--ignore` names it in double quotes, as the diff prints it.
@Suite("Paths with names that hold dots")
struct DottedNamePathTests {
    @Test func aDottedNameIsOneSegmentFromTheReaderToThePattern() throws {
        let document = try JSONDocument.read(Array(#"{"a.b":{"c":[1,[2]]}}"#.utf8))
        let index = document.pathIndex()
        let deepest = try #require(
            document.nodes.indices.map { document.steps(of: $0, in: index) }
                .max { $0.count < $1.count })
        #expect(deepest == [.member("a.b"), .member("c"), .element(1), .element(0)])
        #expect(JSONPathStep.render(deepest) == #"["a.b"].c[1][0]"#)
        #expect(document.paths().contains(#"["a.b"].c[1][0]"#))
        let segments = JWSComparison.segments(deepest)
        #expect(segments.map(\.name) == ["a.b", "c", "element"] && segments[1].selector == "1")
        let path = DiffPath([DiffPath.Segment("jws"), DiffPath.Segment("payload")] + segments)
        #expect(path.description == #"jws.payload."a.b".c[1].element[0]"#)
        #expect(try IgnorePattern(#"jws.payload."a.b""#).matches(path))
        #expect(try IgnorePattern(#""a.b""#).matches(path))
        #expect(try !IgnorePattern("jws.payload.a").matches(path))
        #expect(try IgnorePattern(#"jws.payload."a\"b""#).description == #"jws.payload."a\"b""#)
        #expect(throws: IgnorePattern.ParseError.self) { try IgnorePattern(#"jws."a.b"#) }
        for malformed in [#""a"b"#, #"a"b""#, #""a""b""#, #""a\u{zz}""#, #""a\u12""#] {
            #expect(throws: IgnorePattern.ParseError.self, "\(malformed)") { try IgnorePattern(malformed) }
        }
    }

    /// Whatever name a path prints, the printed segment pasted into `--ignore` matches it: dots, quotes, control
    /// characters and the empty name.
    @Test func everyPrintedNameMatchesItself() throws {
        for name in ["a.b", "", "say \"hi\"", "back\\slash", "tab\there", "line\u{1}feed", "[x]", "é"] {
            let path = DiffPath([DiffPath.Segment("jws"), DiffPath.Segment(name)])
            let printed = path.description
            #expect(try IgnorePattern(printed).matches(path), "\(printed)")
            #expect(
                try !IgnorePattern(printed).matches(DiffPath([DiffPath.Segment("jws"), DiffPath.Segment(name + "x")]))
                    || name.isEmpty,
                "\(printed)")
        }
    }
}

import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptValidation

/// One side of a JWS diff: the name to show and the inspection.
package typealias JWSDiffInput = ComparedInput<JWSInspection>

/// Compares two JWS inputs (tokens, notifications, API responses) token by token, matched by where they are:
/// `jws.header.alg`, `jws.payload.data.bundleId`, `jws.x5c[0].notAfter`, `jws.verification.chain`, and a nested
/// token's under `jws.nested[data.signedTransactionInfo].…`. A token of a JSON input is `jws[signedPayload]`. The
/// signature's octets are an encoding-level change (they differ whenever anything signed does; `--encoding` shows
/// them).
package enum JWSComparison {
    package static func compare(_ a: JWSDiffInput, _ b: JWSDiffInput, options: DiffOptions = DiffOptions())
        -> DiffResult
    {
        var sink = ChangeSink(options: options)
        let tokensA = Dictionary(a.inspection.tokens.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let tokensB = Dictionary(b.inspection.tokens.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var paths = a.inspection.tokens.map(\.path)
        for token in b.inspection.tokens where tokensA[token.path] == nil { paths.append(token.path) }
        for path in paths {
            let root = DiffPath("jws", selector: path.isEmpty ? nil : path)
            compareToken(tokensA[path], tokensB[path], root: root, options: options, into: &sink)
        }
        if a.inspection.readError?.code != b.inspection.readError?.code {
            sink.compare(
                DiffPath("jws").appending("readError"), .jws,
                a.inspection.readError.map { .word("\($0.code): \($0.message)") },
                b.inspection.readError.map { .word("\($0.code): \($0.message)") }, offsetA: nil, offsetB: nil)
        }
        var result = DiffResult(
            a: DiffSide(name: a.name, input: a.inspection.input, readError: nil),
            b: DiffSide(name: b.name, input: b.inspection.input, readError: nil),
            changes: sink.changes, ignoredCount: sink.ignoredCount,
            hiddenEncodingCount: sink.hiddenEncodingCount)
        result.unusedIgnorePatterns = zip(options.ignore, sink.ignoredByPattern).filter { $0.1 == 0 }.map(\.0)
        return result
    }

    /// One fact of a token: its path below the token, layer, value and offset.
    struct Fact {
        var path: [DiffPath.Segment]
        var layer: DiffLayer
        var value: DiffValue
        var offset: Int?
        var isEncoding = false
    }

    /// Two tokens fact by fact, then their nested tokens by path (iteratively: nesting is bounded by the reader).
    static func compareToken(
        _ a: JWSVerification?, _ b: JWSVerification?, root: DiffPath, options: DiffOptions,
        into sink: inout ChangeSink
    ) {
        var pending: [(JWSVerification?, JWSVerification?, DiffPath)] = [(a, b, root)]
        while let (left, right, path) = pending.popLast() {
            let factsA = left.map(facts) ?? []
            let factsB = right.map(facts) ?? []
            let byPathB = Dictionary(factsB.map { (DiffPath($0.path), $0) }, uniquingKeysWith: { first, _ in first })
            let keysA = Set(factsA.map { DiffPath($0.path) })
            for fact in factsA where options.compares(fact.layer) {
                let other = byPathB[DiffPath(fact.path)]
                sink.compare(
                    DiffPath(path.segments + fact.path), fact.layer, fact.value, other?.value,
                    offsetA: fact.offset, offsetB: other?.offset, isEncoding: fact.isEncoding)
            }
            for fact in factsB where options.compares(fact.layer) && !keysA.contains(DiffPath(fact.path)) {
                sink.compare(
                    DiffPath(path.segments + fact.path), fact.layer, nil, fact.value, offsetA: nil,
                    offsetB: fact.offset, isEncoding: fact.isEncoding)
            }
            let nestedA = Dictionary(
                (left?.nested ?? []).map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
            let nestedB = Dictionary(
                (right?.nested ?? []).map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
            var nestedPaths = (left?.nested ?? []).map(\.path)
            for child in right?.nested ?? [] where nestedA[child.path] == nil { nestedPaths.append(child.path) }
            for nestedPath in nestedPaths.reversed() {
                pending.append(
                    (nestedA[nestedPath], nestedB[nestedPath], path.appending("nested", selector: nestedPath)))
            }
        }
    }

    /// Every fact of one token, in the order the dump shows them.
    static func facts(_ verification: JWSVerification) -> [Fact] {
        let token = verification.token
        var facts: [Fact] = []
        func mapped(_ part: JWSToken.Part, _ jsonOffset: Int) -> Int? {
            token.ranges[part].map { $0.lowerBound + Base64URL.textOffset(ofDecodedByte: jsonOffset) }
        }
        for (part, document) in [(JWSToken.Part.header, token.header), (.payload, token.payload)] {
            guard let document else { continue }
            let paths = document.paths()
            let index = document.pathIndex()
            for (node, entry) in document.nodes.enumerated() where node != document.root {
                guard entry.kind != .object, entry.kind != .array, !paths[node].hasPrefix("x5c[") else { continue }
                // A string holding a JWS is compared as that token, under nested[path].
                if entry.kind == .string, let text = document.string(node), JWSReader.looksLikeCompactJWS(text.utf8),
                    verification.nested.contains(where: { $0.path == paths[node] })
                {
                    continue
                }
                facts.append(
                    Fact(
                        path: [DiffPath.Segment(part.rawValue)] + segments(document.steps(of: node, in: index)),
                        layer: .jws,
                        value: value(document, node, path: paths[node]), offset: mapped(part, entry.start)))
            }
        }
        for (index, entry) in verification.certificates.enumerated() {
            let base = [DiffPath.Segment("x5c", selector: String(index))]
            switch entry {
            case .success(let certificate):
                for (name, value) in [
                    ("subject", certificate.subject), ("issuer", certificate.issuer),
                    ("serial", certificate.serialHex),
                    ("notBefore", ReceiptDate.format(epochSeconds: certificate.notBefore)),
                    ("notAfter", ReceiptDate.format(epochSeconds: certificate.notAfter)),
                    ("publicKey", certificate.publicKeyDescription),
                    ("sha256Fingerprint", certificate.sha256Fingerprint),
                ] {
                    facts.append(
                        Fact(
                            path: base + [DiffPath.Segment(name)], layer: .certificates, value: .word(value),
                            offset: token.ranges[.header]?.lowerBound))
                }
            case .failure(let error):
                facts.append(
                    Fact(
                        path: base + [DiffPath.Segment("error")], layer: .certificates,
                        value: .word(error.message), offset: token.ranges[.header]?.lowerBound))
            }
        }
        facts.append(
            Fact(
                path: [DiffPath.Segment("signature")], layer: .jws, value: .bytes(token.signature[...]),
                offset: token.ranges[.signature]?.lowerBound, isEncoding: true))
        if let chain = verification.chain {
            for field in VerificationComparison.fields(chain) {
                facts.append(
                    Fact(
                        path: [DiffPath.Segment("verification"), DiffPath.Segment(field.name)],
                        layer: .verification, value: field.value, offset: nil))
            }
        }
        facts.append(
            Fact(
                path: [DiffPath.Segment("valid")], layer: .verification, value: .bool(verification.isValid),
                offset: nil))
        return facts
    }

    /// A JSON path's steps as diff segments: a member is a segment of its name, an element the selector of the
    /// member holding it (`signedTransactions[2]`), or an `element` segment of its own when another element holds it.
    static func segments(_ steps: [JSONPathStep]) -> [DiffPath.Segment] {
        var result: [DiffPath.Segment] = []
        for step in steps {
            switch step {
            case .member(let name): result.append(DiffPath.Segment(name))
            case .element(let index):
                if let last = result.last, last.selector == nil, last.name != "element" {
                    result[result.count - 1].selector = String(index)
                } else {
                    result.append(DiffPath.Segment("element", selector: String(index)))
                }
            }
        }
        return result
    }

    /// A claim's value: a leaf as the response diff shows it, a number named `…Date` as epoch milliseconds; a
    /// container is null here (its members are compared one by one, each at its own path).
    static func value(_ document: JSONDocument, _ node: Int, path: String) -> DiffValue {
        switch document.nodes[node].kind {
        case .object, .array: return .null
        case .number where path.hasSuffix("Date") || path.hasSuffix("date"):
            return .epochMilliseconds(document.text(node))
        default: return ResponseComparison.value(document, node)
        }
    }
}

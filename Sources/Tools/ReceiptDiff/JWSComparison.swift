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
        // Tokens pair by where they are, then in order: a token compares with itself however it is wrapped (alone,
        // or in a notification body as `signedPayload`), as a receipt does.
        let tokensA = a.inspection.tokens
        let tokensB = b.inspection.tokens
        var partner = HashJoin.match(tokensA.map(\.path), tokensB.map(\.path))
        HashJoin.matchByPosition(
            left: tokensA.count, right: tokensB.count, partner: &partner, leftEligible: { _ in true },
            rightEligible: { _ in true })
        for (token, other) in zip(tokensA, partner) {
            let root = DiffPath("jws", selector: token.path.isEmpty ? nil : token.path)
            compareToken(token, other.map { tokensB[$0] }, root: root, options: options, into: &sink)
        }
        let partnered = Set(partner.compactMap { $0 })
        for (index, token) in tokensB.enumerated() where !partnered.contains(index) {
            let root = DiffPath("jws", selector: token.path.isEmpty ? nil : token.path)
            compareToken(nil, token, root: root, options: options, into: &sink)
        }
        if a.inspection.readError?.code != b.inspection.readError?.code {
            sink.compare(
                DiffPath("jws").appending("readError"), .jws,
                a.inspection.readError.map { .word("\($0.code): \($0.message)") },
                b.inspection.readError.map { .word("\($0.code): \($0.message)") }, offsetA: nil, offsetB: nil)
        }
        if options.compares(.verification) { VerdictComparison.compare(a.inspection, b.inspection, into: &sink) }
        var result = DiffResult(
            a: DiffSide(name: a.name, input: a.inspection.input, readError: nil, made: Self.signed(a.inspection)),
            b: DiffSide(name: b.name, input: b.inspection.input, readError: nil, made: Self.signed(b.inspection)),
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
    /// Facts and nested tokens at one path (a member named twice) pair in order of occurrence, so an input compared
    /// with itself is equal whatever it holds.
    static func compareToken(
        _ a: JWSVerification?, _ b: JWSVerification?, root: DiffPath, options: DiffOptions,
        into sink: inout ChangeSink
    ) {
        var pending: [(JWSVerification?, JWSVerification?, DiffPath)] = [(a, b, root)]
        while let (left, right, path) = pending.popLast() {
            let factsA = left.map(facts) ?? []
            let factsB = right.map(facts) ?? []
            let partner = HashJoin.match(factsA.map { DiffPath($0.path) }, factsB.map { DiffPath($0.path) })
            for (fact, other) in zip(factsA, partner) where options.compares(fact.layer) {
                let otherFact = other.map { factsB[$0] }
                sink.compare(
                    DiffPath(path.segments + fact.path), fact.layer, fact.value, otherFact?.value,
                    offsetA: fact.offset, offsetB: otherFact?.offset, isEncoding: fact.isEncoding)
            }
            let partnered = Set(partner.compactMap { $0 })
            for (index, fact) in factsB.enumerated() where options.compares(fact.layer) && !partnered.contains(index) {
                sink.compare(
                    DiffPath(path.segments + fact.path), fact.layer, nil, fact.value, offsetA: nil,
                    offsetB: fact.offset, isEncoding: fact.isEncoding)
            }
            let nestedA = left?.nested ?? []
            let nestedB = right?.nested ?? []
            let nestedPartner = HashJoin.match(nestedA.map(\.path), nestedB.map(\.path))
            var pairs: [(JWSVerification?, JWSVerification?, String)] = zip(nestedA, nestedPartner).map {
                child, other in (child, other.map { nestedB[$0] }, child.path)
            }
            let nestedPartnered = Set(nestedPartner.compactMap { $0 })
            for (index, child) in nestedB.enumerated() where !nestedPartnered.contains(index) {
                pairs.append((nil, child, child.path))
            }
            for (childA, childB, nestedPath) in pairs.reversed() {
                pending.append((childA, childB, path.appending("nested", selector: nestedPath)))
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
        // Where each x5c string starts in the input.
        var x5cOffsets: [String: Int] = [:]
        if let header = token.header {
            for (node, path) in header.paths().enumerated() where path.hasPrefix("x5c[") {
                x5cOffsets[path] = mapped(.header, header.nodes[node].start)
            }
        }
        for (index, entry) in verification.certificates.enumerated() {
            let base = [DiffPath.Segment("x5c", selector: String(index))]
            let offset = x5cOffsets["x5c[\(index)]"] ?? token.ranges[.header]?.lowerBound
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
                            offset: offset))
                }
            case .failure(let error):
                facts.append(
                    Fact(
                        path: base + [DiffPath.Segment("error")], layer: .certificates,
                        value: .word(error.message), offset: offset))
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

    /// When the document's first token was signed (`signedDate`), when it says.
    static func signed(_ inspection: JWSInspection) -> Int64? {
        guard case .success(let date)? = inspection.tokens.first?.token.claimDate("signedDate") else { return nil }
        return date.milliseconds
    }
}

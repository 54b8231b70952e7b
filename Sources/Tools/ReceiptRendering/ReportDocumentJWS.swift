import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptPKCS7
import ReceiptPurchases
import ReceiptStatus
import ReceiptValidation

/// A JWS input's part of the report: each token's parts, its decoded header and payload, its x5c certificates, and
/// the tokens nested in it.
extension ReportDocument {
    // MARK: - JWS

    mutating func addJWS(_ inspection: JWSInspection, bytes: [UInt8]) {
        var tree = ReportTree(size: bytes.count)
        let jsonOffset = inspection.jws?.jsonOffset ?? 0
        if let json = inspection.jws?.json {
            addJSON(json, offset: jsonOffset, to: &tree)
        }
        addInputSpace(
            "input (\(inspection.input.format))", kind: .text, bytes: bytes, tree: tree, findings: inspection.findings)
        // (verification, the space holding its text, where its text starts there): nested tokens are pushed after
        // their carrier's spaces exist, and read in document order without recursion.
        var pending: [(JWSVerification, Int, Int, String)] = []
        for verification in inspection.tokens.reversed() {
            pending.append(
                (
                    verification, 0, verification.offset + (inspection.jws?.json != nil ? jsonOffset : 0),
                    verification.path
                ))
        }
        var headlines: [String] = []
        while let (verification, holder, start, path) = pending.popLast() {
            let nested = addToken(verification, holder: holder, at: start, fullPath: path)
            if holder == 0 {
                headlines.append(PurchaseSummary(verification.token.payload, kind: verification.binding.kind).headline)
                if trust.evaluatedAt == nil, let chain = verification.chain {
                    trust.anchor = chain.anchor
                    trust.evaluatedAt = chain.evaluatedAt
                    trust.evaluatedAtSource = chain.evaluatedAtSource.phrase
                }
            }
            for (child, space, offset) in nested.reversed() {
                pending.append((child, space, offset, path.isEmpty ? child.path : "\(path) → \(child.path)"))
            }
        }
        headline = headlines.isEmpty ? "an input with no token rcpt could read" : headlines.joined(separator: "; ")
    }

    /// The token's node in its holder, its parts, and a space for each decoded part and x5c certificate; returns
    /// its nested tokens with the space and offset where each one's text is.
    mutating func addToken(_ verification: JWSVerification, holder: Int, at start: Int, fullPath: String)
        -> [(JWSVerification, Int, Int)]
    {
        let token = verification.token
        let base = token.text.startIndex
        func shifted(_ range: Range<Int>) -> Range<Int> {
            (start + range.lowerBound - base)..<(start + range.upperBound - base)
        }
        let kind = verification.binding.kind.rawValue
        let title = verification.path.isEmpty ? "token (\(kind))" : "\(verification.path) (\(kind))"
        var holderTree = spaces[holder].tree
        let whole = start..<(start + token.text.count)
        let parent = holderTree.path(holding: whole).last ?? ReportTree.root
        let tokenNode = holderTree.add(
            under: parent, start: whole.lowerBound, end: whole.upperBound,
            label: labels.id(title))
        var partSpaces: [JWSToken.Part: Int] = [:]
        for part in JWSToken.Part.allCases {
            guard let range = token.ranges[part] else { continue }
            let text = shifted(range)
            holderTree.add(
                under: tokenNode, start: text.lowerBound, end: text.upperBound,
                label: labels.id("\(part.rawValue) (base64url)"))
            let decoded: [UInt8]
            let spaceKind: SpaceKind
            switch part {
            case .header:
                decoded = token.headerBytes
                spaceKind = .json
            case .payload:
                decoded = token.payloadBytes
                spaceKind = .json
            case .signature:
                decoded = token.signature
                spaceKind = .raw
            }
            var tree = ReportTree(size: decoded.count)
            if part == .header, let header = token.header { addJSON(header, offset: 0, to: &tree) }
            if part == .payload, let payload = token.payload { addJSON(payload, offset: 0, to: &tree) }
            if part == .signature && decoded.count == 64 {
                tree.add(under: ReportTree.root, start: 0, end: 32, label: labels.id("r"))
                tree.add(under: ReportTree.root, start: 32, end: 64, label: labels.id("s"))
            }
            spaces.append(
                Space(
                    label: "\(title): \(part.rawValue), decoded", kind: spaceKind, bytes: decoded,
                    source: Source(
                        space: holder, start: text.lowerBound, length: text.count,
                        alphabet: "base64url"),
                    tree: tree))
            partSpaces[part] = spaces.count - 1
        }
        spaces[holder].tree = holderTree
        tokens.append(
            TokenPlace(
                path: verification.path, kind: kind, holder: holder, offset: start,
                parts: partSpaces))
        marks += verification.findings.map { Mark($0, space: holder, offset: $0.offset.map { start + $0 - base }) }
        if let headerSpace = partSpaces[.header] { addCertificates(verification, header: headerSpace, title: title) }
        guard let payloadSpace = partSpaces[.payload] else { return [] }
        if payloads[fullPath] == nil { payloads[fullPath] = (payloadSpace, token.payload) }
        return zip(token.nested, verification.nested).map { held, child in (child, payloadSpace, held.offset) }
    }

    /// A space for each x5c certificate, mapped to its base64 string in the decoded header, and the chain picture.
    mutating func addCertificates(_ verification: JWSVerification, header space: Int, title: String) {
        guard let header = verification.token.header, let array = header.member("x5c", of: header.root),
            header.nodes[array].kind == .array
        else { return }
        var certificates: [ChainCertificate] = []
        for (index, element) in header.children(of: array).prefix(16).enumerated() {
            guard index < verification.certificates.count,
                case .success(let certificate) = verification.certificates[index]
            else { continue }
            let node = header.nodes[element]
            let der = certificate.derEncoded
            // The string maps character for character when it has no escapes and exactly the padded length.
            let characters = node.end - node.start - 2
            let plain =
                node.kind == .string && !header.bytes[node.start..<node.end].contains(UInt8(ascii: "\\"))
                && characters == (der.count + 2) / 3 * 4
            var tree = ReportTree(size: der.count)
            addDER(der, to: &tree)
            if let first = tree.nodes.indices.dropFirst().first {
                tree.relabel(first, labels.id("Certificate " + certificate.subject))
            }
            spaces.append(
                Space(
                    label: "\(title): x5c[\(index)] \(certificate.subject)", kind: .der, bytes: der,
                    source: plain
                        ? Source(
                            space: space, start: node.start + 1, length: characters,
                            alphabet: "base64") : nil,
                    tree: tree))
            certificates.append(
                ChainCertificate(
                    subject: certificate.subject, notBefore: certificate.notBefore,
                    notAfter: certificate.notAfter, space: spaces.count - 1,
                    range: 0..<der.count))
        }
        guard !certificates.isEmpty else { return }
        // Nested tokens usually carry the carrier's chain: draw each distinct chain once.
        let subjects = certificates.map(\.subject)
        if let same = chains.firstIndex(where: { $0.certificates.map(\.subject) == subjects }) {
            chains[same].title += ", \(title)"
            return
        }
        let verdict =
            "signature \(verification.signature.rawValue), chain \(verification.chain?.chain.rawValue ?? "unchecked")"
        chains.append(
            Chain(
                title: "x5c of \(title)", certificates: certificates,
                evaluatedAt: verification.chain?.evaluatedAt, verdict: verdict))
    }

    /// Every value of a JSON document as a node, labelled by its member name or index, from `offset`.
    mutating func addJSON(_ document: JSONDocument, offset: Int, to tree: inout ReportTree) {
        var parents: [Int] = []  // the tree node of each open container, by depth
        for (index, node) in document.nodes.enumerated() {
            let depth = Int(node.depth)
            parents.removeSubrange(min(depth, parents.count)...)
            let parent = parents.last ?? ReportTree.root
            let name: String
            if let key = node.keyRange {
                name = String(decoding: document.bytes[key], as: UTF8.self)
            } else if index == document.root {
                name = "JSON " + JWSReport.typeName(node.kind)
            } else {
                name = "[\(tree.nodes[parent].childCount)]"
            }
            let id = tree.add(
                under: parent, start: offset + node.start, end: offset + node.end,
                label: labels.id(
                    name + (node.kind == .object || node.kind == .array ? "" : " · " + JWSReport.typeName(node.kind))))
            if node.kind == .object || node.kind == .array { parents.append(id) }
        }
    }
}

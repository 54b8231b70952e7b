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

/// Everything the HTML report shows of one inspected document, with every fact tied to bytes: the byte spaces (a
/// receipt's DER; a JWS's text, each part's decoded bytes, each x5c certificate, nested tokens' own), the structure
/// over each space (`ReportTree`), the verdict, the findings at their offsets, the certificate chains with their
/// validity, and the purchase events for the timeline. `HTMLReport` writes it into the page.
package struct ReportDocument {
    /// How the page reads a space's bytes: DER (values by their tag), JSON text, other text, or raw bytes.
    enum SpaceKind: String { case der, json, text, raw }

    /// Where a decoded space's bytes come from: base64 (or base64url) characters from `start` in another space.
    struct Source {
        var space: Int
        var start: Int
        var length: Int
        var alphabet: String
    }

    struct Space {
        var label: String
        var kind: SpaceKind
        var bytes: [UInt8]
        var source: Source?
        var tree: ReportTree
    }

    /// A finding (or the error that stopped reading) and where it points on the page.
    struct Mark {
        var severity: String
        var code: String
        var message: String
        /// The space and offset the finding points at, when it points into one the page shows.
        var space: Int?
        var offset: Int?

        init(severity: String, code: String, message: String, space: Int?, offset: Int?) {
            self.severity = severity
            self.code = code
            self.message = message
            self.space = space
            self.offset = offset
        }

        init(_ finding: Finding, space: Int?, offset: Int?) {
            self.init(severity: finding.severity.rawValue, code: finding.code, message: finding.message, space: space,
                      offset: offset)
        }
    }

    struct ChainCertificate {
        var subject: String
        var notBefore: Int64
        var notAfter: Int64
        var space: Int
        var range: Range<Int>
    }

    struct Chain {
        var title: String
        var certificates: [ChainCertificate]
        var evaluatedAt: Int64?
        var verdict: String
    }

    /// Where a token is: its path, the space holding its text and where it starts there, and the spaces of its
    /// decoded parts.
    struct TokenPlace {
        var path: String
        var kind: String
        var holder: Int
        var offset: Int
        var parts: [JWSToken.Part: Int]
    }

    struct Event {
        /// Milliseconds since the epoch.
        var time: Int64
        var kind: String
        var product: String
        var transaction: String
        /// Where the statement is: a receipt's in-app record, or the date claim in a token's decoded payload.
        var space: Int?
        var offset: Int?
    }

    /// What the verdict rests on: the root the chain ended at, whether it was given with --root, and the time the
    /// chain was evaluated at and where that time came from.
    struct Trust {
        var anchor: String?
        var customRoots: Bool
        var evaluatedAt: Int64?
        var evaluatedAtSource: String?
    }

    /// The most events the timeline draws (a 100 000-record receipt has 200 000); the count of all is kept.
    static let maximumEvents = 4000
    /// The most nodes a generic DER walk adds to one space.
    static let maximumDERNodes = 200_000

    package var name: String
    package var document: Inspection
    var spaces: [Space] = []
    var labels = Labels()
    var marks: [Mark] = []
    var chains: [Chain] = []
    var events: [Event] = []
    var eventCount = 0
    var tokens: [TokenPlace] = []
    var trust: Trust
    /// Each token's decoded payload by its full path (as `rcpt status` names it: carriers first, joined by →).
    var payloads: [String: (space: Int, payload: JSONDocument?)] = [:]
    /// Whether the document was found inside a larger input (a log line, a JSON string, base64 text).
    var isWrapped: Bool
    /// What the document said of itself, for the top of the page.
    var headline: String

    /// `bytes` are what the reader read (the document as the classifier found it in the input); `input` the input
    /// itself; `customRoots` whether the anchors were given with --root.
    package init(name: String, document: Inspection, bytes: [UInt8], input: [UInt8], customRoots: Bool) {
        self.name = name
        self.document = document
        headline = ""
        trust = Trust(anchor: nil, customRoots: customRoots, evaluatedAt: nil, evaluatedAtSource: nil)
        isWrapped = bytes != input
        if let inspection = document.receipt { addReceipt(inspection, bytes: bytes) }
        if let inspection = document.jws { addJWS(inspection, bytes: bytes) }
        addEvents(document, bytes: bytes)
        if let error = document.readError {
            // The error that stopped reading is listed first, marked where reading stopped.
            marks.insert(Mark(severity: "error", code: error.code, message: "reading stopped: " + error.message,
                              space: error.offset == nil || spaces.isEmpty ? nil : 0, offset: error.offset), at: 0)
        }
    }

    /// Interned labels: a million attributes share a few dozen names.
    struct Labels {
        private(set) var list: [String] = [""]
        private var index: [String: Int] = ["": 0]

        mutating func id(_ label: String) -> Int {
            if let found = index[label] { return found }
            list.append(label)
            index[label] = list.count - 1
            return list.count - 1
        }
    }

    // MARK: - Receipts

    mutating func addReceipt(_ inspection: ReceiptInspection, bytes: [UInt8]) {
        guard let receipt = inspection.receipt else {
            headline = "an input rcpt could not read as a receipt"
            spaces.append(Space(label: "input", kind: .raw, bytes: bytes, source: nil, tree: ReportTree(size: bytes.count)))
            marks = inspection.findings.map { Mark($0, space: $0.offset == nil ? nil : 0, offset: $0.offset) }
            return
        }
        let der = receipt.bytes
        var tree = ReportTree(size: der.count)
        let content = receipt.signedData.encapsulatedContent?.octetString
        addDER(der, to: &tree, stoppingAt: content?.offset)
        let signedData = receipt.signedData
        if let first = tree.nodes.indices.dropFirst().first { tree.relabel(first, labels.id("ContentInfo")) }
        if let offset = signedData.offset, let node = tree.node(startingAt: offset) {
            tree.relabel(node, labels.id("SignedData"))
        }
        for (index, certificate) in signedData.certificates.enumerated() {
            guard let node = tree.node(spanning: certificate.encoding) else { continue }
            let subject = inspection.certificates.indices.contains(index)
                ? inspection.certificates[index].certificate?.subject : nil
            tree.relabel(node, labels.id("certificate [\(index)]" + (subject.map { " " + $0 } ?? "")))
        }
        for (index, signer) in signedData.signers.enumerated() {
            if let node = tree.node(spanning: signer.offset..<(signer.offset + signer.length)) {
                tree.relabel(node, labels.id("SignerInfo [\(index)]"))
            }
            if let node = tree.node(startingAt: signer.signature.lowerBound, within: signer.signature) {
                tree.relabel(node, labels.id("signature"))
            }
        }
        if let content, let contentNode = tree.node(startingAt: content.offset) {
            tree.relabel(contentNode, labels.id("eContent: the receipt payload"))
            if let payload = receipt.payload { addPayload(payload, der: der, to: &tree, under: contentNode) }
        }
        spaces.append(Space(label: "receipt (\(inspection.input.format))", kind: .der, bytes: der, source: nil,
                            tree: tree))
        marks = inspection.findings.map { finding in
            finding.code == FindingCode.inputRepaired.rawValue
                ? Mark(finding, space: nil, offset: nil) : Mark(finding, space: 0, offset: finding.offset)
        }
        func text(_ type: Int64) -> String? { receipt.payload?.first(type)?.text }
        // A field given twice is named with every value: readers disagree on which one counts.
        let bundleIDs = receipt.payload?.attributes.filter { $0.type == 2 }.map { $0.text ?? "(not text)" } ?? []
        let named = bundleIDs.count > 1
            ? "an app whose bundle_id is given \(bundleIDs.count) times (\(bundleIDs.joined(separator: ", ")))"
            : bundleIDs.first ?? "an app it does not name"
        headline = "receipt for \(named)" + (text(0).map { " [\($0)]" } ?? "")
        var certificates: [ChainCertificate] = []
        for report in inspection.certificates {
            guard let certificate = report.certificate else { continue }
            certificates.append(ChainCertificate(subject: certificate.subject, notBefore: certificate.notBefore,
                                                 notAfter: certificate.notAfter, space: 0,
                                                 range: report.embedded.encoding))
        }
        if let verification = inspection.verification {
            trust.anchor = verification.anchor
            trust.evaluatedAt = verification.evaluatedAt
            trust.evaluatedAtSource = verification.evaluatedAtSource.phrase
        }
        if !certificates.isEmpty {
            let verdict = inspection.verification.map { "signature \($0.signature.rawValue), chain \($0.chain.rawValue)" }
            chains.append(Chain(title: "certificates in the receipt", certificates: certificates,
                                evaluatedAt: inspection.verification?.evaluatedAt, verdict: verdict ?? "not verified"))
        }
    }

    /// The payload SET and every attribute, each with its value; a record's attributes under its value.
    mutating func addPayload(_ payload: ReceiptPayload, der: [UInt8], to tree: inout ReportTree, under parent: Int) {
        var reader = ASN1Reader(der, rules: .ber)
        func headerLength(at offset: Int, end: Int) -> Int {
            guard offset >= 0, offset < end, end <= der.count,
                  let node = try? reader.readNode(at: offset, limit: end, depth: 0) else { return 0 }
            return node.headerLength
        }
        let setStart = payload.offset
        let setEnd = tree.nodes[parent].end
        let set = tree.add(under: parent, start: setStart, headerLength: headerLength(at: setStart, end: setEnd),
                           end: setEnd, label: labels.id("payload SET (\(payload.attributes.count) attributes)"))
        let recordLabel = labels.id("in-app record")
        // (attributes, parent node): records are pushed and read after their attribute, without recursion.
        var pending: [(AttributeList, Int)] = [(payload.attributes, set)]
        while let (list, holder) = pending.popLast() {
            for attribute in list {
                let end = attribute.offset + attribute.length
                let type = attribute.type.map(String.init) ?? "?"
                let name = attribute.name
                let label = name.hasSuffix("_" + type) ? name : "\(name) (\(type))"
                let node = tree.add(under: holder, start: attribute.offset, headerLength: headerLength(at: attribute.offset, end: end),
                                    end: end, label: labels.id(label))
                guard let valueOffset = attribute.valueOffset else { continue }
                let value = attribute.valueBytes
                let header = attribute.valueHeaderLength
                let valueLabel = attribute.record != nil ? recordLabel
                    : labels.id(attribute.valueTag?.name ?? "OCTET STRING content")
                let valueNode = tree.add(under: node, start: valueOffset, headerLength: header,
                                         end: valueOffset + value.count, label: valueLabel)
                if let record = attribute.record { pending.append((record.attributes, valueNode)) }
            }
        }
    }

    /// Every element of a DER (or BER) space, without recursion, to `maximumDERNodes`; `stoppingAt` is an element
    /// whose content is not walked (the receipt payload, which `addPayload` reads by its meaning).
    mutating func addDER(_ bytes: [UInt8], to tree: inout ReportTree, stoppingAt opaque: Int? = nil) {
        // A cut input shows as far as it goes: the elements it cuts end where the bytes end.
        var reader = ASN1Reader(bytes, rules: .ber, toleratesTruncation: true)
        var stack: [(cursor: ASN1Cursor, parent: Int)] = [(reader.elements(in: 0..<bytes.count, depth: 0), ReportTree.root)]
        while let (start, parent) = stack.popLast() {
            var cursor = start
            guard tree.count < Self.maximumDERNodes, let node = try? reader.next(&cursor) else { continue }
            stack.append((cursor, parent))
            let id = tree.add(under: parent, start: node.offset, headerLength: node.headerLength, end: node.end,
                              label: labels.id(derLabel(node, bytes)))
            if node.tag.isConstructed && node.offset != opaque {
                stack.append((reader.children(of: node), id))
            }
        }
    }

    func derLabel(_ node: ASN1Node, _ bytes: [UInt8]) -> String {
        guard node.tag == .objectIdentifier, let oid = ASN1Primitives.objectIdentifier(bytes, node.contentRange) else {
            return node.tag.name
        }
        let name = ObjectIdentifierNames.name(for: oid)
        return "OBJECT IDENTIFIER " + oid + (name == oid ? "" : " " + name)
    }

    // MARK: - JWS

    mutating func addJWS(_ inspection: JWSInspection, bytes: [UInt8]) {
        var tree = ReportTree(size: bytes.count)
        let jsonOffset = inspection.jws?.jsonOffset ?? 0
        if let json = inspection.jws?.json {
            addJSON(json, offset: jsonOffset, to: &tree)
        }
        spaces.append(Space(label: "input (\(inspection.input.format))", kind: .text, bytes: bytes, source: nil,
                            tree: tree))
        marks = inspection.findings.map { finding in
            finding.code == FindingCode.inputRepaired.rawValue
                ? Mark(finding, space: nil, offset: nil) : Mark(finding, space: 0, offset: finding.offset)
        }
        // (verification, the space holding its text, where its text starts there): nested tokens are pushed after
        // their carrier's spaces exist, and read in document order without recursion.
        var pending: [(JWSVerification, Int, Int, String)] = []
        for verification in inspection.tokens.reversed() {
            pending.append((verification, 0, verification.offset + (inspection.jws?.json != nil ? jsonOffset : 0),
                            verification.path))
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
        func shifted(_ range: Range<Int>) -> Range<Int> { (start + range.lowerBound - base)..<(start + range.upperBound - base) }
        let kind = verification.binding.kind.rawValue
        let title = verification.path.isEmpty ? "token (\(kind))" : "\(verification.path) (\(kind))"
        var holderTree = spaces[holder].tree
        let whole = start..<(start + token.text.count)
        let parent = holderTree.path(holding: whole).last ?? ReportTree.root
        let tokenNode = holderTree.add(under: parent, start: whole.lowerBound, end: whole.upperBound,
                                       label: labels.id(title))
        var partSpaces: [JWSToken.Part: Int] = [:]
        for part in JWSToken.Part.allCases {
            guard let range = token.ranges[part] else { continue }
            let text = shifted(range)
            holderTree.add(under: tokenNode, start: text.lowerBound, end: text.upperBound,
                           label: labels.id("\(part.rawValue) (base64url)"))
            let decoded: [UInt8]
            let spaceKind: SpaceKind
            switch part {
            case .header: decoded = token.headerBytes; spaceKind = .json
            case .payload: decoded = token.payloadBytes; spaceKind = .json
            case .signature: decoded = token.signature; spaceKind = .raw
            }
            var tree = ReportTree(size: decoded.count)
            if part == .header, let header = token.header { addJSON(header, offset: 0, to: &tree) }
            if part == .payload, let payload = token.payload { addJSON(payload, offset: 0, to: &tree) }
            if part == .signature && decoded.count == 64 {
                tree.add(under: ReportTree.root, start: 0, end: 32, label: labels.id("r"))
                tree.add(under: ReportTree.root, start: 32, end: 64, label: labels.id("s"))
            }
            spaces.append(Space(label: "\(title): \(part.rawValue), decoded", kind: spaceKind, bytes: decoded,
                                source: Source(space: holder, start: text.lowerBound, length: text.count,
                                               alphabet: "base64url"),
                                tree: tree))
            partSpaces[part] = spaces.count - 1
        }
        spaces[holder].tree = holderTree
        tokens.append(TokenPlace(path: verification.path, kind: kind, holder: holder, offset: start,
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
              header.nodes[array].kind == .array else { return }
        var certificates: [ChainCertificate] = []
        for (index, element) in header.children(of: array).prefix(16).enumerated() {
            guard index < verification.certificates.count,
                  case .success(let certificate) = verification.certificates[index] else { continue }
            let node = header.nodes[element]
            let der = certificate.derEncoded
            // The string maps character for character when it has no escapes and exactly the padded length.
            let characters = node.end - node.start - 2
            let plain = node.kind == .string && !header.bytes[node.start..<node.end].contains(UInt8(ascii: "\\"))
                && characters == (der.count + 2) / 3 * 4
            var tree = ReportTree(size: der.count)
            addDER(der, to: &tree)
            if let first = tree.nodes.indices.dropFirst().first {
                tree.relabel(first, labels.id("Certificate " + certificate.subject))
            }
            spaces.append(Space(label: "\(title): x5c[\(index)] \(certificate.subject)", kind: .der, bytes: der,
                                source: plain ? Source(space: space, start: node.start + 1, length: characters,
                                                       alphabet: "base64") : nil,
                                tree: tree))
            certificates.append(ChainCertificate(subject: certificate.subject, notBefore: certificate.notBefore,
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
        let verdict = "signature \(verification.signature.rawValue), chain \(verification.chain?.chain.rawValue ?? "unchecked")"
        chains.append(Chain(title: "x5c of \(title)", certificates: certificates,
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
            let id = tree.add(under: parent, start: offset + node.start, end: offset + node.end,
                              label: labels.id(name + (node.kind == .object || node.kind == .array ? "" : " · " + JWSReport.typeName(node.kind))))
            if node.kind == .object || node.kind == .array { parents.append(id) }
        }
    }

    // MARK: - Timeline

    /// Purchases, renewals, expiries and revocations the document states, from the same reading `rcpt status` uses.
    mutating func addEvents(_ document: Inspection, bytes: [UInt8]) {
        let statements = StatusDocument(name: name, document: document, input: bytes)
        var all: [Event] = []
        let isReceipt = document.kind == .receipt
        // A receipt's statements point at their in-app record; a token's at the date claim in its decoded payload.
        func place(_ evidence: StatusEvidence, claim: String) -> (Int?, Int?) {
            guard evidence.trust != .unsigned else { return (nil, nil) }
            if isReceipt { return (evidence.offset == nil ? nil : 0, evidence.offset) }
            guard let (space, payload) = payloads[evidence.path] else { return (nil, nil) }
            guard let payload, let node = payload.member(claim, of: payload.root) else { return (space, 0) }
            return (space, payload.nodes[node].start)
        }
        func event(_ time: Int64, _ kind: String, _ product: String, _ transaction: String,
                   _ evidence: StatusEvidence, claim: String) -> Event {
            let (space, offset) = place(evidence, claim: claim)
            return Event(time: time, kind: kind, product: product, transaction: transaction, space: space, offset: offset)
        }
        for fact in statements.transactions + statements.unsignedTransactions {
            let transaction = fact.transactionID ?? "?"
            let renewal = fact.originalTransactionID != nil && fact.originalTransactionID != fact.transactionID
            if let date = fact.purchaseDate {
                all.append(event(date, renewal ? "renewal" : "purchase", fact.productID, transaction, fact.evidence,
                                 claim: "purchaseDate"))
            }
            if let date = fact.expiresDate {
                all.append(event(date, "expiry", fact.productID, transaction, fact.evidence, claim: "expiresDate"))
            }
            if let date = fact.revocationDate {
                all.append(event(date, fact.revocationReason.map { "revocation (\($0))" } ?? "revocation",
                                 fact.productID, transaction, fact.evidence, claim: "revocationDate"))
            }
        }
        for fact in statements.renewals + statements.unsignedRenewals {
            let product = fact.productID ?? fact.autoRenewProductID ?? "?"
            let transaction = fact.originalTransactionID ?? "?"
            if let date = fact.renewalDate {
                all.append(event(date, "next renewal", product, transaction, fact.evidence, claim: "renewalDate"))
            }
            if let date = fact.gracePeriodExpiresDate {
                all.append(event(date, "grace period ends", product, transaction, fact.evidence,
                                 claim: "gracePeriodExpiresDate"))
            }
        }
        eventCount = all.count
        all.sort { ($0.time, $0.product, $0.kind) < ($1.time, $1.product, $1.kind) }
        if all.count > Self.maximumEvents {
            // Evenly spread over the whole history, first and last kept.
            let step = Double(all.count - 1) / Double(Self.maximumEvents - 1)
            all = (0..<Self.maximumEvents).map { all[Int((Double($0) * step).rounded())] }
        }
        events = all
    }
}

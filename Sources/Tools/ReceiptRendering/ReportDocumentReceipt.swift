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

/// A receipt's part of the report: the container's DER, the payload's attributes and in-app records.
extension ReportDocument {
    // MARK: - Receipts

    mutating func addReceipt(_ inspection: ReceiptInspection, bytes: [UInt8]) {
        guard let receipt = inspection.receipt else {
            headline = "an input rcpt could not read as a receipt"
            spaces.append(
                Space(label: "input", kind: .raw, bytes: bytes, source: nil, tree: ReportTree(size: bytes.count)))
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
            let subject =
                inspection.certificates.indices.contains(index)
                ? inspection.certificates[index].certificate?.subject : nil
            tree.relabel(node, labels.id("certificate [\(index)]" + (subject.map { " " + $0 } ?? "")))
        }
        for (index, signer) in signedData.signers.enumerated() {
            if let node = tree.node(spanning: signer.offset..<(signer.offset + signer.length)) {
                tree.relabel(node, labels.id("SignerInfo [\(index)]"))
            }
            if let node = tree.node(spanning: signer.signatureString.encodingRange) {
                tree.relabel(node, labels.id("signature"))
            }
        }
        if let content, let contentNode = tree.node(startingAt: content.offset) {
            tree.relabel(contentNode, labels.id("eContent: the receipt payload"))
            if let payload = receipt.payload { addPayload(payload, der: der, to: &tree, under: contentNode) }
        }
        addInputSpace(
            "receipt (\(inspection.input.format))", kind: .der, bytes: der, tree: tree, findings: inspection.findings)
        func text(_ type: Int64) -> String? { receipt.payload?.first(type)?.text }
        // A field given twice is named with every value: readers disagree on which one counts.
        let bundleIDs = receipt.payload?.attributes.filter { $0.type == 2 }.map { $0.text ?? "(not text)" } ?? []
        let named =
            bundleIDs.count > 1
            ? "an app whose bundle_id is given \(bundleIDs.count) times (\(bundleIDs.joined(separator: ", ")))"
            : bundleIDs.first ?? "an app it does not name"
        headline = "receipt for \(named)" + (text(0).map { " [\($0)]" } ?? "")
        var certificates: [ChainCertificate] = []
        for report in inspection.certificates {
            guard let certificate = report.certificate else { continue }
            certificates.append(
                ChainCertificate(
                    subject: certificate.subject, notBefore: certificate.notBefore,
                    notAfter: certificate.notAfter, space: 0,
                    range: report.embedded.encoding))
        }
        if let verification = inspection.verification {
            trust.anchor = verification.anchor
            trust.evaluatedAt = verification.evaluatedAt
            trust.evaluatedAtSource = verification.evaluatedAtSource.phrase
        }
        if !certificates.isEmpty {
            let verdict = inspection.verification.map {
                "signature \($0.signature.rawValue), chain \($0.chain.rawValue)"
            }
            chains.append(
                Chain(
                    title: "certificates in the receipt", certificates: certificates,
                    evaluatedAt: inspection.verification?.evaluatedAt, verdict: verdict ?? "not verified"))
        }
    }

    /// The payload SET and every attribute, each with its value; a record's attributes under its value.
    mutating func addPayload(_ payload: ReceiptPayload, der: [UInt8], to tree: inout ReportTree, under parent: Int) {
        var reader = ASN1Reader(der, rules: .ber)
        func headerLength(at offset: Int, end: Int) -> Int {
            guard offset >= 0, offset < end, end <= der.count,
                let node = try? reader.readNode(at: offset, limit: end, depth: 0)
            else { return 0 }
            return node.headerLength
        }
        let setStart = payload.offset
        let setEnd = tree.nodes[parent].end
        let set = tree.add(
            under: parent, start: setStart, headerLength: headerLength(at: setStart, end: setEnd),
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
                let node = tree.add(
                    under: holder, start: attribute.offset, headerLength: headerLength(at: attribute.offset, end: end),
                    end: end, label: labels.id(label))
                guard let valueOffset = attribute.valueOffset else { continue }
                let value = attribute.valueBytes
                let header = attribute.valueHeaderLength
                let valueLabel =
                    attribute.record != nil
                    ? recordLabel
                    : labels.id(attribute.valueTag?.name ?? "OCTET STRING content")
                let valueNode = tree.add(
                    under: node, start: valueOffset, headerLength: header,
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
        var stack: [(cursor: ASN1Cursor, parent: Int)] = [
            (reader.elements(in: 0..<bytes.count, depth: 0), ReportTree.root)
        ]
        while let (start, parent) = stack.popLast() {
            var cursor = start
            guard tree.count < Self.maximumDERNodes, let node = try? reader.next(&cursor) else { continue }
            stack.append((cursor, parent))
            let id = tree.add(
                under: parent, start: node.offset, headerLength: node.headerLength, end: node.end,
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
}

import ReceiptASN1
import ReceiptDiagnostics

/// Reads a PKCS#7/CMS ContentInfo holding SignedData from a receipt file, keeping every part it reaches.
public enum SignedDataReader {
    /// Reads `bytes` (the whole file). Never throws: a read that stops returns what it had, plus the error.
    public static func read(
        _ bytes: [UInt8], limits: ASN1Limits = .default,
        containerLimits: ContainerLimits = .default
    ) -> SignedDataReadResult {
        var state = State(
            reader: ASN1Reader(bytes, rules: .ber, limits: limits, toleratesTruncation: true),
            containerLimits: containerLimits)
        do {
            try state.readContentInfo()
        } catch {
            return state.result(error: error)
        }
        return state.result(error: nil)
    }

    private struct State {
        var reader: ASN1Reader
        let containerLimits: ContainerLimits
        var signedData = SignedData()
        var anomalies = EncodingAnomalyLog(layer: "container")
        var findings: [Finding] = []
        var bytes: [UInt8] { reader.bytes }

        func result(error: PKCS7Error?) -> SignedDataReadResult {
            let truncation = reader.truncation.map { PKCS7Error($0, while: "the receipt, which is truncated") }
            var encoding = anomalies.summary
            encoding.add(findings: findings)
            return SignedDataReadResult(
                signedData: signedData, findings: anomalies.findings + findings, error: error,
                truncation: truncation, nodesRead: reader.nodesRead, encoding: encoding)
        }

        // MARK: Reading helpers that wrap ASN.1 errors with context

        mutating func node(at offset: Int, limit: Int, depth: Int, _ context: String) throws(PKCS7Error) -> ASN1Node {
            do {
                let node = try reader.readNode(at: offset, limit: limit, depth: depth)
                anomalies.note(node)
                return node
            } catch {
                throw PKCS7Error(error, while: context)
            }
        }

        mutating func next(_ cursor: inout ASN1Cursor, _ context: String) throws(PKCS7Error) -> ASN1Node? {
            do {
                let node = try reader.next(&cursor)
                if let node { anomalies.note(node) }
                return node
            } catch {
                throw PKCS7Error(error, while: context)
            }
        }

        /// The next element, which must carry `tag` (or, with `eitherForm`, its tag in either form: a string BER may
        /// write constructed).
        mutating func required(
            _ cursor: inout ASN1Cursor, _ tag: ASN1Tag, _ context: String, in parent: ASN1Node, eitherForm: Bool = false
        ) throws(PKCS7Error) -> ASN1Node {
            guard let node = try next(&cursor, context) else {
                throw PKCS7Error(
                    .pkcs7MissingElement, at: parent.offset,
                    "\(context) is missing: the element at \(parent.offset) ends too early")
            }
            try expect(node, eitherForm ? tag.withConstructed(node.tag.isConstructed) : tag, context)
            return node
        }

        func expect(_ node: ASN1Node, _ tag: ASN1Tag, _ context: String) throws(PKCS7Error) {
            guard node.tag == tag else {
                throw PKCS7Error(
                    .pkcs7UnexpectedElement, at: node.offset,
                    "expected \(tag.name(against: node.tag)) for \(context), found \(node.tag.name(against: tag))")
            }
        }

        /// An element RFC 5652 has no room for: other parsers may read it instead of the signed one.
        mutating func unsignedAddition(at offset: Int, _ message: String) {
            findings.append(
                Finding(
                    .pkcs7ExtraContent, at: offset,
                    "\(message): RFC 5652 has no room for it, it is not signed, and another parser may read it instead")
            )
        }

        /// The children of a repeated part (a SET OF, a [n] IMPLICIT SET OF), read up to a limit.
        struct LimitedCursor {
            var cursor: ASN1Cursor
            let limit: Int
            /// What the children are, in the plural ("certificates"), for the finding when there are too many.
            let what: String
            var count = 0
        }

        func children(of node: ASN1Node, upTo limit: Int, _ what: String) -> LimitedCursor {
            LimitedCursor(cursor: reader.children(of: node), limit: limit, what: what)
        }

        /// The next child within the limit; children past it are walked (their lengths still checked) but not
        /// returned, and the first of them is recorded once (`containerLimitExceeded`).
        mutating func next(_ limited: inout LimitedCursor, _ context: String) throws(PKCS7Error) -> ASN1Node? {
            while let node = try next(&limited.cursor, context) {
                defer { limited.count += 1 }
                if limited.count < limited.limit { return node }
                if limited.count == limited.limit {
                    let (limit, what) = (limited.limit, limited.what)
                    findings.append(
                        Finding(
                            .containerLimitExceeded, at: node.offset,
                            "more than \(limit) \(what): the rest are not read (ContainerLimits)"))
                }
            }
            return nil
        }

        func oid(_ node: ASN1Node, _ context: String) throws(PKCS7Error) -> String {
            try expect(node, .objectIdentifier, context)
            guard let oid = ASN1Primitives.objectIdentifier(bytes, node.contentRange) else {
                throw PKCS7Error(.pkcs7InvalidOID, at: node.offset, "\(context) is not a valid OBJECT IDENTIFIER")
            }
            return oid
        }

        mutating func algorithm(_ node: ASN1Node, _ context: String) throws(PKCS7Error) -> AlgorithmIdentifier {
            try expect(node, .sequence, context)
            var cursor = reader.children(of: node)
            let oidNode = try required(&cursor, .objectIdentifier, "\(context) algorithm", in: node)
            let parameters = try next(&cursor, "\(context) parameters")
            if try next(&cursor, context) != nil {
                findings.append(
                    Finding(
                        .pkcs7ExtraAlgorithmFields, at: node.offset,
                        "\(context) has more than two fields"))
            }
            return AlgorithmIdentifier(
                oid: try oid(oidNode, context), offset: node.offset,
                parameters: parameters?.encodingRange)
        }

        // MARK: ContentInfo and SignedData

        mutating func readContentInfo() throws(PKCS7Error) {
            guard !bytes.isEmpty else {
                throw PKCS7Error(.pkcs7EmptyInput, at: 0, "the input is empty")
            }
            // 0x3F: a universal tag in the long form (a SEQUENCE so written, as OpenSSL reads it; a red team's trial).
            guard bytes[0] == 0x30 || bytes[0] == 0x3F else {
                let first = String(bytes[0], radix: 16)
                throw PKCS7Error(
                    .pkcs7NotContentInfo, at: 0,
                    "not a receipt: a PKCS#7 receipt starts with a SEQUENCE (byte 0x30), this input with 0x\(first.count == 1 ? "0" + first : first)"
                )
            }
            let contentInfo = try node(at: 0, limit: bytes.count, depth: 0, "the ContentInfo")
            guard contentInfo.tag == .sequence else {
                throw PKCS7Error(
                    .pkcs7NotContentInfo, at: 0,
                    "a PKCS#7 receipt starts with a SEQUENCE; this input starts with \(contentInfo.tag.name)")
            }
            if contentInfo.end < bytes.count {
                signedData.trailingBytes = contentInfo.end..<bytes.count
                let trailing = bytes.count - contentInfo.end
                findings.append(
                    Finding(
                        .trailingBytes, at: contentInfo.end,
                        "\(trailing) bytes follow the ContentInfo, outside the signature"))
            }
            var cursor = reader.children(of: contentInfo)
            let typeNode = try required(&cursor, .objectIdentifier, "the ContentInfo contentType", in: contentInfo)
            let contentType = try oid(typeNode, "the ContentInfo contentType")
            signedData.contentType = contentType
            guard contentType == ObjectIdentifierNames.signedData else {
                throw PKCS7Error(
                    .pkcs7NotSignedData, at: typeNode.offset,
                    "content type is \(ObjectIdentifierNames.name(for: contentType)), not pkcs7-signedData")
            }
            let explicit = try required(
                &cursor, .context(0, constructed: true), "the ContentInfo content",
                in: contentInfo)
            var inner = reader.children(of: explicit)
            let signed = try required(&inner, .sequence, "SignedData", in: explicit)
            if let extra = try next(&inner, "the ContentInfo content") {
                unsignedAddition(
                    at: extra.offset,
                    "a second element (\(extra.tag.name)) follows SignedData inside the ContentInfo content [0]")
            }
            if let extra = try next(&cursor, "the ContentInfo") {
                unsignedAddition(at: extra.offset, "ContentInfo has a third field (\(extra.tag.name))")
            }
            try readSignedData(signed)
        }

        mutating func readSignedData(_ signed: ASN1Node) throws(PKCS7Error) {
            signedData.offset = signed.offset
            var cursor = reader.children(of: signed)
            let versionNode = try required(&cursor, .integer, "the SignedData version", in: signed)
            signedData.version = ASN1Primitives.int64(bytes, versionNode.contentRange)

            let digestSet = try required(&cursor, .set, "the SignedData digestAlgorithms", in: signed)
            var digestCursor = children(
                of: digestSet, upTo: containerLimits.maximumDigestAlgorithms, "digest algorithms")
            while let algorithmNode = try next(&digestCursor, "a digest algorithm") {
                signedData.digestAlgorithms.append(try algorithm(algorithmNode, "a digest algorithm"))
            }

            let encapsulated = try required(&cursor, .sequence, "the EncapsulatedContentInfo", in: signed)
            try readEncapsulatedContent(encapsulated)

            var element = try next(&cursor, "SignedData")
            if let certificatesNode = element, certificatesNode.tag == .context(0, constructed: true) {
                var certificateCursor = children(
                    of: certificatesNode, upTo: containerLimits.maximumCertificates,
                    "certificates")
                while let certificateNode = try next(&certificateCursor, "a certificate") {
                    let index = signedData.certificates.count
                    signedData.certificates.append(
                        EmbeddedCertificate.read(
                            certificateNode, index: index,
                            reader: &reader))
                }
                element = try next(&cursor, "SignedData")
            }
            if let crlsNode = element, crlsNode.tag == .context(1, constructed: true) {
                var crlCursor = children(of: crlsNode, upTo: containerLimits.maximumCRLs, "CRLs")
                while let crl = try next(&crlCursor, "a CRL") {
                    signedData.crls.append(crl.encodingRange)
                }
                element = try next(&cursor, "SignedData")
            }
            guard let signerSet = element else {
                throw PKCS7Error(.pkcs7MissingElement, at: signed.offset, "SignedData has no signerInfos")
            }
            try expect(signerSet, .set, "the SignedData signerInfos")
            var signerCursor = children(of: signerSet, upTo: containerLimits.maximumSignerInfos, "SignerInfos")
            while let signerNode = try next(&signerCursor, "a SignerInfo") {
                signedData.signers.append(try signerInfo(signerNode))
            }
            if let extra = try next(&cursor, "SignedData") {
                unsignedAddition(
                    at: extra.offset, "an element (\(extra.tag.name)) follows the signerInfos in SignedData")
            }
        }

        mutating func readEncapsulatedContent(_ encapsulated: ASN1Node) throws(PKCS7Error) {
            var cursor = reader.children(of: encapsulated)
            let typeNode = try required(&cursor, .objectIdentifier, "the eContentType", in: encapsulated)
            var content = EncapsulatedContent(
                contentType: try oid(typeNode, "the eContentType"),
                offset: encapsulated.offset, octetString: nil, segments: [])
            signedData.encapsulatedContent = content
            guard let explicit = try next(&cursor, "the eContent") else { return }
            try expect(explicit, .context(0, constructed: true), "the eContent")
            var inner = reader.children(of: explicit)
            guard let octets = try next(&inner, "the eContent OCTET STRING") else {
                throw PKCS7Error(.pkcs7MissingElement, at: explicit.offset, "eContent [0] is empty")
            }
            guard octets.tag.tagClass == .universal, octets.tag.number == 4 else {
                throw PKCS7Error(
                    .pkcs7UnexpectedElement, at: octets.offset,
                    "expected OCTET STRING for the eContent, found \(octets.tag.name)")
            }
            content.octetString = octets
            content.segments = try segments(of: octets, "the eContent segments")
            signedData.encapsulatedContent = content
            if let extra = try next(&inner, "the eContent") {
                unsignedAddition(
                    at: extra.offset, "a second element (\(extra.tag.name)) follows the content inside eContent [0]")
            }
            if let extra = try next(&cursor, "the EncapsulatedContentInfo") {
                unsignedAddition(at: extra.offset, "EncapsulatedContentInfo has a third field (\(extra.tag.name))")
            }
        }

        mutating func signerInfo(_ node: ASN1Node) throws(PKCS7Error) -> SignerInfo {
            try expect(node, .sequence, "a SignerInfo")
            var cursor = reader.children(of: node)
            let versionNode = try required(&cursor, .integer, "the SignerInfo version", in: node)
            guard let sidNode = try next(&cursor, "the SignerInfo sid") else {
                throw PKCS7Error(.pkcs7MissingElement, at: node.offset, "SignerInfo has no signer identifier")
            }
            let identifier: SignerIdentifier
            if sidNode.tag == .sequence {
                var sidCursor = reader.children(of: sidNode)
                let issuer = try required(&sidCursor, .sequence, "the signer's issuer", in: sidNode)
                let serial = try required(&sidCursor, .integer, "the signer's serial number", in: sidNode)
                identifier = .issuerAndSerialNumber(issuer: issuer.encodingRange, serialNumber: serial.contentRange)
            } else if sidNode.tag.tagClass == .contextSpecific, sidNode.tag.number == 0 {
                identifier = .subjectKeyIdentifier(
                    try segments(of: sidNode, universal: 4, "the subjectKeyIdentifier's segments"))
            } else {
                throw PKCS7Error(
                    .pkcs7UnexpectedElement, at: sidNode.offset,
                    "expected issuerAndSerialNumber or [0] for the signer identifier, found \(sidNode.tag.name(against: .context(0, constructed: false)))"
                )
            }
            guard let digestNode = try next(&cursor, "the SignerInfo digestAlgorithm") else {
                throw PKCS7Error(.pkcs7MissingElement, at: node.offset, "SignerInfo has no digestAlgorithm")
            }
            let digest = try algorithm(digestNode, "the SignerInfo digestAlgorithm")
            guard var element = try next(&cursor, "SignerInfo") else {
                throw PKCS7Error(.pkcs7MissingElement, at: node.offset, "SignerInfo has no signatureAlgorithm")
            }
            var signedAttributes: SignedAttributes?
            if element.tag == .context(0, constructed: true) {
                var isDER = element.anomalies.isEmpty
                let read = try attributes(element, "a signed attribute", isDER: &isDER)
                signedAttributes = SignedAttributes(
                    encoding: element.encodingRange, content: element.contentRange,
                    attributes: read, isDER: isDER)
                guard let following = try next(&cursor, "SignerInfo") else {
                    throw PKCS7Error(.pkcs7MissingElement, at: node.offset, "SignerInfo has no signatureAlgorithm")
                }
                element = following
            }
            let signatureAlgorithm = try algorithm(element, "the SignerInfo signatureAlgorithm")
            let signatureNode = try required(&cursor, .octetString, "the signature", in: node, eitherForm: true)
            let signatureSegments = try segments(of: signatureNode, "the signature's segments")
            var unsigned: [CMSAttribute]?
            var trailing = try next(&cursor, "SignerInfo")
            if let attributesNode = trailing, attributesNode.tag == .context(1, constructed: true) {
                var ignored = true
                unsigned = try attributes(attributesNode, "an unsigned attribute", isDER: &ignored)
                trailing = try next(&cursor, "SignerInfo")
            }
            if let extra = trailing {
                unsignedAddition(at: extra.offset, "SignerInfo has a field (\(extra.tag.name)) after its last one")
            }
            return SignerInfo(
                offset: node.offset, length: node.encodedLength,
                version: ASN1Primitives.int64(bytes, versionNode.contentRange),
                identifier: identifier, digestAlgorithm: digest, signedAttributes: signedAttributes,
                signatureAlgorithm: signatureAlgorithm, signatureString: signatureNode,
                signatureSegments: signatureSegments, unsignedAttributes: unsigned)
        }

        /// The primitive segments whose concatenation is the content of `octets`, an OCTET STRING (or one
        /// IMPLICIT-tagged, whose segments carry the `universal` tag): itself, or in BER's constructed form its
        /// segments, each noted as an encoding anomaly.
        mutating func segments(of octets: ASN1Node, universal: UInt64? = nil, _ context: String) throws(PKCS7Error)
            -> [Range<Int>]
        {
            do {
                let segments = try reader.stringSegments(of: octets, universal: universal)
                if octets.tag.isConstructed {
                    // An IMPLICIT-tagged string's header cannot say it is one: its constructed form is noted here.
                    var marked = octets
                    marked.anomalies = [.constructedString]
                    if !octets.anomalies.contains(.constructedString) { anomalies.note(marked) }
                    var walk = reader.children(of: octets)
                    while let segment = try reader.next(&walk) { anomalies.note(segment) }
                }
                return segments
            } catch {
                throw PKCS7Error(error, while: context)
            }
        }

        /// The attributes in `container`; `isDER` becomes false when a header is not DER, the attributes are not in
        /// DER SET OF order, or an attribute has a field after its values.
        mutating func attributes(_ container: ASN1Node, _ context: String, isDER: inout Bool)
            throws(PKCS7Error) -> [CMSAttribute]
        {
            var result: [CMSAttribute] = []
            var cursor = children(
                of: container, upTo: containerLimits.maximumAttributes,
                "attributes in one SignerInfo field")
            var previous: Range<Int>?
            while let attribute = try next(&cursor, context) {
                try expect(attribute, .sequence, context)
                if let previous, !ASN1Primitives.isDEROrdered(bytes[previous], bytes[attribute.encodingRange]) {
                    isDER = false
                }
                previous = attribute.encodingRange
                var fields = reader.children(of: attribute)
                let typeNode = try required(&fields, .objectIdentifier, "\(context) type", in: attribute)
                let valueSet = try required(&fields, .set, "\(context) values", in: attribute)
                isDER = isDER && attribute.anomalies.isEmpty && typeNode.anomalies.isEmpty && valueSet.anomalies.isEmpty
                var values: [Range<Int>] = []
                var valueCursor = children(
                    of: valueSet, upTo: containerLimits.maximumAttributes, "values in one attribute")
                while let value = try next(&valueCursor, "\(context) value") {
                    isDER = isDER && value.anomalies.isEmpty
                    values.append(value.encodingRange)
                }
                if try next(&fields, context) != nil { isDER = false }
                result.append(
                    CMSAttribute(
                        oid: try oid(typeNode, "\(context) type"), offset: attribute.offset,
                        values: values))
            }
            return result
        }
    }
}

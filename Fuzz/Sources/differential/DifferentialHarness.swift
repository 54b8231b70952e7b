import FuzzModelSupport
import FuzzSupport
import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptOracle
import ReceiptPKCS7
import SwiftASN1

/// Our readers against independent ones on the same bytes; any disagreement that is not a documented, deliberate
/// difference (Fuzz/README.md, "Differential: deliberate differences") traps with both verdicts printed.
///
/// - ASN.1: `ASN1Tree.read` against swift-asn1's `BER.parse` / `DER.parse`: acceptance, then the structure
///   (tags, depths, offsets, content ranges) node by node.
/// - Container: `SignedDataReader` against OpenSSL's `d2i_CMS_ContentInfo`: acceptance, eContentType and the
///   extracted eContent bytes.
/// - Payload: the payload index against swift-asn1 (`IndexOracle`): attribute count, offsets, types, versions,
///   value octets and record sizes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    ASN1Differential.compare(bytes, rules: .ber)
    ASN1Differential.compare(bytes, rules: .der)
    ContainerDifferential.compare(bytes)
    // The payload index, on the input read as a payload and on the content of the input read as a receipt.
    IndexOracle.check("differential", bytes)
    if let content = SignedDataReader.read(bytes).signedData.encapsulatedContent, content.octetString != nil {
        IndexOracle.check("differential", ContainerDifferential.joined(content.segments, bytes))
    }
    return 0
}

// MARK: - ASN.1: ours against swift-asn1

enum ASN1Differential {
    /// swift-asn1 counts the outermost element as depth 1 and stops past 50 (`_maximumNodeDepth`); ours counts
    /// from 0 and allows 64, so our depth 50 is the first swift-asn1 refuses.
    static let swiftASN1FirstRefusedDepth = 50

    /// A node as both readers can describe it: tag, nesting, whole encoding, and content for primitives.
    struct Shape: Equatable, CustomStringConvertible {
        var tagClass: UInt8
        var number: UInt64
        var constructed: Bool
        var depth: Int
        var encoding: Range<Int>
        var content: Range<Int>?

        var description: String {
            "class \(tagClass) number \(number)\(constructed ? " constructed" : "") depth \(depth) "
                + "encoding \(encoding)\(content.map { " content \($0)" } ?? "")"
        }
    }

    static func compare(_ bytes: [UInt8], rules: ASN1Rules) {
        let name = rules == .ber ? "BER" : "DER"
        let ours: Result<ASN1Tree, ReceiptASN1.ASN1Error>
        do {
            ours = .success(try ASN1Tree.read(bytes, rules: rules))
        } catch {
            ours = .failure(error)
        }
        let theirs: Result<SwiftASN1.ASN1Node, any Error>
        do {
            theirs = .success(rules == .ber ? try BER.parse(bytes) : try DER.parse(bytes))
        } catch {
            theirs = .failure(error)
        }
        switch (ours, theirs) {
        case (.failure, .failure):
            return
        case (.success(let tree), .failure(let error)):
            if let reason = beyondSwiftASN1(tree) {
                blackHole(reason)
                return
            }
            disagree(bytes, "\(name): ours accepts (\(tree.nodes.count) nodes), swift-asn1 rejects: \(error)")
        case (.failure(let error), .success(let root)):
            let theirShapes = shapes(root)
            if rules == .der, theirShapes.contains(where: isConstructedString) {
                return  // DER forbids constructed strings; swift-asn1 checks that only when a string is decoded.
            }
            disagree(bytes, "\(name): ours rejects (\(error)), swift-asn1 accepts (\(theirShapes.count) nodes)")
        case (.success(let tree), .success(let root)):
            let ourShapes = tree.nodes.map(shape)
            let theirShapes = shapes(root)
            guard ourShapes != theirShapes else { return }
            let index =
                zip(ourShapes, theirShapes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(ourShapes.count, theirShapes.count)
            let ourNode = index < ourShapes.count ? ourShapes[index].description : "none"
            let theirNode = index < theirShapes.count ? theirShapes[index].description : "none"
            disagree(
                bytes,
                "\(name): both accept, structures differ at node \(index) (ours \(ourShapes.count) nodes, "
                    + "swift-asn1 \(theirShapes.count)):\n  ours:      \(ourNode)\n  swift-asn1: \(theirNode)")
        }
    }

    /// Why swift-asn1 may refuse a tree we read, when the reason is one of its documented limits; nil otherwise.
    static func beyondSwiftASN1(_ tree: ASN1Tree) -> String? {
        if tree.nodes.filter({ $0.depth == 0 }).count > 1 {
            return "several outermost elements (swift-asn1 parses exactly one)"
        }
        for node in tree.nodes {
            if node.depth >= swiftASN1FirstRefusedDepth { return "nesting beyond swift-asn1's 50 levels" }
            if node.anomalies.contains(.nonMinimalTag) { return "non-minimal tag (swift-asn1 refuses it in BER)" }
            if node.tag.number >= 1 << 63 { return "tag number above 63 bits (swift-asn1 stores 9 septets)" }
            if lengthOctetCount(tree.bytes, node) > 8 { return "more than 8 length octets (swift-asn1 limit)" }
        }
        return nil
    }

    /// How many octets follow the initial length octet of `node`'s header (0 for the short and indefinite forms).
    static func lengthOctetCount(_ bytes: [UInt8], _ node: ReceiptASN1.ASN1Node) -> Int {
        var position = node.offset
        if bytes[position] & 0x1F == 0x1F {
            position += 1
            while position < node.contentStart, bytes[position] & 0x80 != 0 { position += 1 }
        }
        position += 1
        guard position < node.contentStart else { return 0 }
        let initial = bytes[position]
        return initial == 0x80 ? 0 : Int(initial & 0x7F)
    }

    static func isConstructedString(_ shape: Shape) -> Bool {
        shape.constructed && ReceiptASN1.ASN1Tag(.universal, number: shape.number, constructed: true).isStringType
            && shape.tagClass == 0
    }

    static func shape(_ node: ReceiptASN1.ASN1Node) -> Shape {
        Shape(
            tagClass: node.tag.tagClass.rawValue, number: node.tag.number, constructed: node.tag.isConstructed,
            depth: node.depth, encoding: node.encodingRange,
            content: node.tag.isConstructed ? nil : node.contentRange)
    }

    /// swift-asn1's tree in document order, depth counted from 0 like ours.
    static func shapes(_ root: SwiftASN1.ASN1Node) -> [Shape] {
        var result: [Shape] = []
        var stack: [(SwiftASN1.ASN1Node, Int)] = [(root, 0)]
        while let (node, depth) = stack.popLast() {
            let tagClass: UInt8
            switch node.identifier.tagClass {
            case .universal: tagClass = 0
            case .application: tagClass = 1
            case .contextSpecific: tagClass = 2
            case .private: tagClass = 3
            }
            var shape = Shape(
                tagClass: tagClass, number: UInt64(node.identifier.tagNumber), constructed: false,
                depth: depth, encoding: node.encodedBytes.startIndex..<node.encodedBytes.endIndex,
                content: nil)
            switch node.content {
            case .constructed(let children):
                shape.constructed = true
                for child in Array(children).reversed() { stack.append((child, depth + 1)) }
            case .primitive(let content):
                shape.content = content.startIndex..<content.endIndex
            }
            result.append(shape)
        }
        return result
    }

    static func disagree(_ bytes: [UInt8], _ message: String) -> Never {
        Fuzz.fail("differential", "ASN.1 readers disagree. " + message, input: bytes)
    }
}

// MARK: - Container: ours against OpenSSL

enum ContainerDifferential {
    /// Parts of the container that `SignedDataReader` deliberately keeps raw or reads leniently (they are decoded,
    /// and judged, by later layers); OpenSSL decodes them strictly, so a rejection there is not a disagreement.
    static let lenientFields: Set<String> = [
        "certificates", "crls", "sid", "signedAttrs", "unsignedAttrs", "version", "parameter",
    ]

    static func compare(_ bytes: [UInt8]) {
        let ours = SignedDataReader.read(bytes)
        let theirs = OpenSSLCMSOracle.decode(bytes)
        let oursAccepted = ours.error == nil && ours.truncation == nil

        if theirs.accepted, theirs.isSignedData {
            if !oursAccepted, EContentSegments.hasForeignSegment(bytes) {
                return  // OpenSSL's asn1_collect joins primitives of any tag inside a constructed OCTET STRING
            }
            if let error = ours.error, isPrimitiveSetOf(bytes, error) {
                return  // OpenSSL does not check the constructed bit of a SET OF or SEQUENCE OF
            }
            // OpenSSL's asn1_collect joins segments of any tag wherever ours reads a constructed OCTET STRING
            // (README, 7): the signature's and the subjectKeyIdentifier's, beside the eContent's above.
            if let error = ours.error, error.kind == .asn1InvalidStringSegment, error.offset >= 0,
                error.offset < bytes.count, bytes[error.offset] & 0xDF != 0x04
            {
                return
            }
            guard oursAccepted else {
                disagree(bytes, "OpenSSL accepts SignedData, ours rejects", ours, theirs)
            }
            let content = ours.signedData.encapsulatedContent
            // OpenSSL writes no text for an OBJECT IDENTIFIER of more than 586 content octets (OBJ_obj2txt, since
            // CVE-2023-2650): nothing to compare ours with then.
            guard content?.contentType == theirs.encapsulatedContentType || theirs.encapsulatedContentType == nil
            else {
                disagree(bytes, "eContentType differs", ours, theirs)
            }
            let ourContent = content?.octetString == nil ? nil : content.map { joined($0.segments, bytes) }
            guard ourContent == theirs.content else {
                disagree(bytes, "extracted eContent differs", ours, theirs)
            }
            let end = ours.signedData.trailingBytes?.lowerBound ?? bytes.count
            guard end == theirs.consumed else {
                disagree(bytes, "the ContentInfo ends at \(end) for ours, \(theirs.consumed) for OpenSSL", ours, theirs)
            }
            return
        }
        guard oursAccepted else { return }
        if theirs.accepted {
            disagree(bytes, "ours accepts SignedData, OpenSSL decodes another content type", ours, theirs)
        }
        if ours.findings.contains(where: { $0.code.hasPrefix("pkcs7-extra") }) {
            return  // extra elements are findings for us and errors for OpenSSL
        }
        if theirs.failedFields.contains(where: lenientFields.contains) { return }
        if theirs.errors.first?.reason == "header too long",
            ours.findings.contains(where: { $0.kind == .berNonMinimalLength })
        {
            // OpenSSL's asn1_get_length wants one byte more than a long-form length needs, so an empty element
            // with a long-form length (`04 81 00`) is refused when it ends exactly where its parent ends.
            return
        }
        disagree(bytes, "ours accepts, OpenSSL rejects", ours, theirs)
    }

    /// Whether ours stopped at a SET OF or SEQUENCE OF written in primitive form: `11`, `10` (a Name is a SEQUENCE
    /// OF), or `80`/`81` for the IMPLICIT [0]/[1] SET OFs (certificates, crls, signed and unsigned attributes).
    /// X.690 requires the constructed form; OpenSSL checks it for SEQUENCEs but not for SET OF / SEQUENCE OF.
    static func isPrimitiveSetOf(_ bytes: [UInt8], _ error: PKCS7Error) -> Bool {
        guard error.kind == .pkcs7UnexpectedElement, error.offset >= 0, error.offset < bytes.count else {
            return false
        }
        let identifier = bytes[error.offset]
        return identifier & 0x20 == 0 && [0x30, 0x31, 0xA0, 0xA1].contains(identifier | 0x20)
    }

    static func joined(_ segments: [Range<Int>], _ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        for segment in segments { result += bytes[segment] }
        return result
    }

    static func verdict(_ result: SignedDataReadResult) -> String {
        if let error = result.error { return "rejected: \(error)" }
        if let truncation = result.truncation { return "truncated: \(truncation)" }
        let content = result.signedData.encapsulatedContent
        let size =
            content.flatMap { $0.octetString == nil ? nil : $0.length }.map { "\($0) content bytes" }
            ?? "no content"
        return "accepted, eContentType \(content?.contentType ?? "-"), \(size), findings "
            + result.findings.map(\.code).joined(separator: ",")
    }

    /// Traps with both verdicts (built only here, so agreeing inputs cost no strings).
    static func disagree(
        _ bytes: [UInt8], _ what: String, _ ours: SignedDataReadResult,
        _ theirs: OpenSSLCMSVerdict
    ) -> Never {
        Fuzz.fail(
            "differential",
            "container readers disagree: \(what)\n  ours:    \(verdict(ours))\n  "
                + "OpenSSL: \(theirs)", input: bytes)
    }
}

// MARK: - OpenSSL's leniency inside a constructed eContent

/// OpenSSL gathers a constructed OCTET STRING's content (`asn1_collect`) from primitive elements of any tag, even
/// [UNIVERSAL 0] with a length; X.690 §8.7 allows only OCTET STRING segments, and so does `SignedDataReader`.
/// This finds the eContent by its path, header by header, and reports whether any segment has another tag.
enum EContentSegments {
    struct Header {
        var tagClass: UInt8
        var constructed: Bool
        var number: UInt64
        var contentStart: Int
        /// nil for an indefinite length.
        var length: Int?
    }

    /// A minimal header decoder with every bound checked (nil when the bytes do not hold a header).
    static func header(_ bytes: [UInt8], at offset: Int) -> Header? {
        guard offset >= 0, offset < bytes.count else { return nil }
        var position = offset
        let first = bytes[position]
        position += 1
        var number = UInt64(first & 0x1F)
        if number == 0x1F {
            number = 0
            while true {
                guard position < bytes.count, number < (1 << 56) else { return nil }
                let octet = bytes[position]
                position += 1
                number = number << 7 | UInt64(octet & 0x7F)
                if octet & 0x80 == 0 { break }
            }
        }
        guard position < bytes.count else { return nil }
        let lengthOctet = bytes[position]
        position += 1
        var length: Int?
        if lengthOctet < 0x80 {
            length = Int(lengthOctet)
        } else if lengthOctet != 0x80 {
            let count = Int(lengthOctet & 0x7F)
            guard count <= 8, position + count <= bytes.count else { return nil }
            var value = 0
            for index in 0..<count {
                guard value < (1 << 55) else { return nil }
                value = value << 8 | Int(bytes[position + index])
            }
            position += count
            length = value
        }
        return Header(
            tagClass: first >> 6, constructed: first & 0x20 != 0, number: number, contentStart: position,
            length: length)
    }

    /// Where the element at `offset` ends, scanning indefinite lengths (nil when it runs off the input).
    static func end(_ bytes: [UInt8], at offset: Int) -> Int? {
        var position = offset
        var open = 0
        repeat {
            if open > 0, position + 1 < bytes.count, bytes[position] == 0, bytes[position + 1] == 0 {
                position += 2
                open -= 1
                continue
            }
            guard let header = header(bytes, at: position) else { return nil }
            if let length = header.length {
                guard header.contentStart + length <= bytes.count else { return nil }
                position = header.contentStart + length
            } else {
                guard header.constructed, open < 64 else { return nil }
                position = header.contentStart
                open += 1
            }
        } while open > 0
        return position
    }

    /// Steps into the element at `offset`, skips `skip` children, and returns the offset of the next child.
    static func child(_ bytes: [UInt8], of offset: Int, after skip: Int) -> Int? {
        guard let parent = header(bytes, at: offset), parent.constructed else { return nil }
        var position = parent.contentStart
        for _ in 0..<skip {
            guard let next = end(bytes, at: position) else { return nil }
            position = next
        }
        return position
    }

    static func hasForeignSegment(_ bytes: [UInt8]) -> Bool {
        // ContentInfo → [0] → SignedData → encapContentInfo (3rd) → [0] (2nd) → OCTET STRING.
        guard let explicit = child(bytes, of: 0, after: 1), let signedData = child(bytes, of: explicit, after: 0),
            let encapsulated = child(bytes, of: signedData, after: 2),
            let eContent = child(bytes, of: encapsulated, after: 1),
            let octets = child(bytes, of: eContent, after: 0), let outer = header(bytes, at: octets),
            outer.constructed
        else { return false }
        // Walk the segments as asn1_collect does: end-of-contents closes a level, constructed ones nest.
        var position = outer.contentStart
        var ends: [Int?] = [outer.length.map { outer.contentStart + $0 }]
        while let level = ends.last {
            if let limit = level, position >= limit {
                ends.removeLast()
                continue
            }
            if level == nil, position + 1 < bytes.count, bytes[position] == 0, bytes[position + 1] == 0 {
                position += 2
                ends.removeLast()
                continue
            }
            guard let segment = header(bytes, at: position), ends.count < 64 else { return false }
            if segment.tagClass != 0 || segment.number != 4 { return true }
            if segment.constructed {
                ends.append(segment.length.map { segment.contentStart + $0 })
                position = segment.contentStart
            } else {
                guard let length = segment.length else { return false }
                position = segment.contentStart + length
            }
        }
        return false
    }
}

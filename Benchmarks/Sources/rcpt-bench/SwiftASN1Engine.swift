import ReceiptModel
import SwiftASN1

/// The same full decode with apple/swift-asn1 (BER rules, so Xcode receipts read too): ContentInfo → SignedData →
/// eContent → attribute SET → each attribute and record, every value decoded by its tag. Dates use the same
/// RFC 3339 parser as rcpt, so only the ASN.1 work differs.
enum SwiftASN1Engine {
    static func decode(_ bytes: [UInt8]) throws -> DecodeTally {
        var tally = DecodeTally()
        let contentInfo = try BER.parse(bytes)
        guard let signedDataWrapper = child(1, of: contentInfo),
            let signedData = child(0, of: signedDataWrapper),
            let encapsulated = child(2, of: signedData),
            let explicit = child(1, of: encapsulated),
            let octets = child(0, of: explicit)
        else { return tally }
        let payload = try BER.parse(contentBytes(octets))
        try decodeSet(payload, record: false, into: &tally)
        return tally
    }

    static func decodeSet(_ set: ASN1Node, record: Bool, into tally: inout DecodeTally) throws {
        guard let attributes = children(set) else { return }
        for attribute in attributes {
            guard let fields = children(attribute).map(Array.init) else { continue }
            guard fields.count == 3 else { continue }
            let type = try Int64(berEncoded: fields[0])
            _ = try Int64(berEncoded: fields[1])
            let value = contentBytes(fields[2])
            tally.attributes += 1
            if !record && type == 17 {
                tally.records += 1
                try decodeSet(BER.parse(value), record: true, into: &tally)
                continue
            }
            if type == 4 || type == 5 || type == 6 || type == 7 { continue }  // raw, as rcpt's field table says
            guard let inner = try? BER.parse(value) else { continue }
            switch inner.identifier {
            case .utf8String:
                tally.text(String(try ASN1UTF8String(berEncoded: inner)))
            case .ia5String:
                let text = String(try ASN1IA5String(berEncoded: inner))
                tally.text(text)
                if isDate(type, record: record), case .success = ReceiptDate.parse(text) { tally.dates += 1 }
            case .integer:
                tally.integer(try Int64(berEncoded: inner))
            default:
                break
            }
        }
    }

    static func isDate(_ type: Int64, record: Bool) -> Bool {
        record ? [1704, 1706, 1708, 1712].contains(type) : [8, 12, 18, 21].contains(type)
    }

    /// The `index`th child of a constructed node.
    static func child(_ index: Int, of node: ASN1Node) -> ASN1Node? {
        guard let nodes = children(node) else { return nil }
        var iterator = nodes.makeIterator()
        for _ in 0..<index { _ = iterator.next() }
        return iterator.next()
    }

    static func children(_ node: ASN1Node) -> ASN1NodeCollection? {
        if case .constructed(let nodes) = node.content { return nodes }
        return nil
    }

    static func contentBytes(_ node: ASN1Node) -> [UInt8] {
        switch node.content {
        case .primitive(let bytes): return Array(bytes)
        case .constructed(let segments): return segments.flatMap { contentBytes($0) }
        }
    }
}

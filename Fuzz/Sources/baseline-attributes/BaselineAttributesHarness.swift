import FuzzSupport
import SwiftASN1

/// Speed baseline for `attributes`: swift-asn1 reads the same payload the same way — a SET of
/// SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }, each value parsed as one element, type-17 values
/// walked as nested records. Not a bug hunter; `scripts/fuzz-speed.sh` runs it beside `attributes`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    guard let root = try? BER.parse(bytes), root.identifier == .set, case .constructed(let attributes) = root.content
    else { return 0 }
    var total = 0
    for attribute in attributes {
        total &+= read(attribute, nested: true)
    }
    blackHole(total)
    return 0
}

/// Reads one attribute; for type 17 at the top level, the record's attributes too.
func read(_ node: ASN1Node, nested: Bool) -> Int {
    guard node.identifier == .sequence, case .constructed(let fields) = node.content else { return 1 }
    var iterator = fields.makeIterator()
    guard let typeNode = iterator.next(), let versionNode = iterator.next(), let valueNode = iterator.next() else {
        return 2
    }
    let type = (try? Int64(berEncoded: typeNode)) ?? -1
    let version = (try? Int64(berEncoded: versionNode)) ?? -1
    guard let value = try? ASN1OctetString(berEncoded: valueNode) else { return 3 }
    var total = Int(truncatingIfNeeded: type &+ version) &+ value.bytes.count
    guard let inner = try? BER.parse(value.bytes) else { return total }
    total &+= inner.encodedBytes.count
    switch inner.content {
    case .primitive(let content):
        total &+= content.count
        if inner.identifier == .utf8String || inner.identifier == .ia5String {
            total &+= String(decoding: content, as: UTF8.self).utf8.count
        }
    case .constructed(let children):
        if nested, type == 17, inner.identifier == .set {
            for child in children { total &+= read(child, nested: false) }
        }
    }
    return total
}

import FuzzSupport
import SwiftASN1

/// Speed baseline for `ber`: swift-asn1 parses the same input under BER and DER and every node is visited.
/// Not a bug hunter; `scripts/fuzz-speed.sh` runs it beside `ber` on the same inputs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    var total = 0
    if let node = try? BER.parse(bytes) { total &+= visit(node) }
    if let node = try? DER.parse(bytes) { total &+= visit(node) }
    blackHole(total)
    return 0
}

/// Visits every node under `root` without recursion, summing encoded sizes.
func visit(_ root: ASN1Node) -> Int {
    var total = 0
    var stack = [root]
    while let node = stack.popLast() {
        total &+= node.encodedBytes.count &+ Int(truncatingIfNeeded: node.identifier.tagNumber)
        switch node.content {
        case .constructed(let children): stack.append(contentsOf: children)
        case .primitive(let content): total &+= content.count
        }
    }
    return total
}

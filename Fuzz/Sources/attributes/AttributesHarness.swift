import FuzzModelSupport
import FuzzSupport
import ReceiptASN1
import ReceiptModel

/// The payload parser, the heart of rcpt: the input is a receipt payload (a SET OF attributes), read as
/// `Receipt.read` reads a DER receipt's content; every attribute and every record's attributes are then read from
/// the index and touched, and the index's invariants checked. (The harness is also the speed reference against
/// swift-asn1, which parses each input once; the `differential` harness compares the index with swift-asn1.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    var touch = PayloadTouch(harness: "attributes", fileSize: bytes.count)
    let payload = touch.read(bytes)
    if payload.error == nil, !bytes.isEmpty, payload.attributes.isEmpty, payload.tag == .set {
        // A SET read without error and without attributes must be empty: `31 00` (or a BER spelling of it).
        let tree = try? ASN1Tree.read(bytes, rules: .ber)
        if let tree, tree.nodes.count > 1, tree.nodes.first?.end == bytes.count {
            Fuzz.fail(
                "attributes", "a complete SET with \(tree.nodes.count - 1) elements yielded no attributes",
                input: bytes)
        }
    }
    return 0
}

import FuzzSupport
import ReceiptASN1

/// The BER/DER reader under both rule sets. Oracles: whatever reads re-encodes to exactly the input
/// (`ASN1Tree.read(x).write() == x`); DER is a subset of BER, so DER-accepted input is BER-accepted, with the same
/// nodes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    let ber: ASN1Tree?
    do {
        ber = try ASN1Tree.read(bytes, rules: .ber)
    } catch {
        guard error.offset >= 0, error.offset <= bytes.count else {
            Fuzz.fail("ber", "BER error offset \(error.offset) outside the input: \(error)", input: bytes)
        }
        ber = nil
    }
    let der: ASN1Tree?
    do {
        der = try ASN1Tree.read(bytes, rules: .der)
    } catch {
        guard error.offset >= 0, error.offset <= bytes.count else {
            Fuzz.fail("ber", "DER error offset \(error.offset) outside the input: \(error)", input: bytes)
        }
        der = nil
    }
    if let ber {
        let written = ber.write()
        guard written == bytes else {
            Fuzz.fail(
                "ber",
                "BER round trip differs: wrote \(written.count) bytes, first difference at "
                    + "\(firstDifference(written, bytes))", input: bytes)
        }
        for node in ber.nodes {
            guard node.offset < node.contentStart, node.contentStart <= node.contentEnd, node.contentEnd <= node.end,
                node.end <= bytes.count, !node.anomalies.contains(.truncated)
            else {
                Fuzz.fail("ber", "inconsistent node \(node)", input: bytes)
            }
        }
    }
    if let der {
        guard let ber else {
            Fuzz.fail("ber", "DER accepted what BER rejected", input: bytes)
        }
        guard der.write() == bytes else { Fuzz.fail("ber", "DER round trip differs", input: bytes) }
        guard der.nodes == ber.nodes else {
            Fuzz.fail(
                "ber", "DER and BER read different nodes (\(der.nodes.count) vs \(ber.nodes.count))",
                input: bytes)
        }
        for node in der.nodes where !node.anomalies.isEmpty {
            Fuzz.fail("ber", "DER accepted a node with anomalies \(node.anomalies.summary)", input: bytes)
        }
    }
    return 0
}

/// The first index where two buffers differ, or the shorter length.
func firstDifference(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
    zip(lhs, rhs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(lhs.count, rhs.count)
}

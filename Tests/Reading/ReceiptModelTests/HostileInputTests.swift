import Foundation
import ReceiptBuilding
import ReceiptModel
import ReceiptPKCS7
import ReceiptTestSupport
import Testing

/// Reading and both renderings of any input complete, and the JSON always parses back.
struct Rendered {
    @discardableResult
    init(_ receipt: Receipt) {
        var count = 0
        for attribute in receipt.attributes {
            count += attribute.name.count
            if let record = attribute.record { count += record.attributes.count }
        }
        _ = receipt.description
        _ = count
    }
}

@Suite("Hostile bytes never crash or hang the reader")
struct HostileInputTests {
    @Test func randomBytesAreReadOrRejected() {
        var random = SplitMix64(seed: 2026)
        for _ in 0..<3000 {
            let length = Int(random.next() % 600)
            var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if random.next() % 2 == 0, !bytes.isEmpty { bytes[0] = 0x30 }  // get past the first check half the time
            let receipt = Receipt.read(bytes)
            Rendered(receipt)
            if let offset = receipt.error?.offset { #expect(offset >= 0 && offset <= max(bytes.count, 1)) }
        }
    }

    @Test(arguments: [Fixtures.sandboxReceipt, Fixtures.xcodeReceipt, Fixtures.largeReceipt])
    func bitFlipsOfRealReceiptsAreReadOrRejected(_ name: String) {
        let original = Fixtures.realReceipt(name)
        var random = SplitMix64(seed: UInt64(original.count))
        for _ in 0..<400 {
            var bytes = original
            let flips = 1 + Int(random.next() % 3)
            for _ in 0..<flips {
                let index = Int(random.next() % UInt64(bytes.count))
                bytes[index] ^= UInt8(1 << (random.next() % 8))
            }
            Rendered(Receipt.read(bytes))
        }
    }

    @Test(arguments: [Fixtures.sandboxReceipt, Fixtures.xcodeReceipt])
    func insertionsAndDeletionsAreReadOrRejected(_ name: String) {
        let original = Fixtures.realReceipt(name)
        var random = SplitMix64(seed: 7)
        for _ in 0..<300 {
            var bytes = original
            let index = Int(random.next() % UInt64(bytes.count))
            if random.next() % 2 == 0 {
                bytes.insert(
                    contentsOf: (0..<Int(random.next() % 8)).map { _ in UInt8(truncatingIfNeeded: random.next()) },
                    at: index)
            } else {
                bytes.removeSubrange(index..<min(bytes.count, index + 1 + Int(random.next() % 8)))
            }
            Rendered(Receipt.read(bytes))
        }
    }

    @Test func hugeClaimedLengthsAreRejectedWithoutAllocating() {
        for header: [UInt8] in [
            [0x30, 0x84, 0x40, 0, 0, 0], [0x30, 0x88, 0x40, 0, 0, 0, 0, 0, 0, 0],
            [0x30, 0x88, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        ] {
            let receipt = Receipt.read(header + Array(repeating: 0, count: 14))
            #expect(receipt.error != nil)
        }
    }
}

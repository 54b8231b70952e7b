import Foundation

/// Paths and bytes of the files the repository ships for tests: real receipts and Apple certificates under
/// `Corpus/`. Located from this source file, so tests run from any working directory on a fresh clone.
package enum Fixtures {
    package static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    package static func url(_ relativePath: String) -> URL { repositoryRoot.appendingPathComponent(relativePath) }

    package static func bytes(_ relativePath: String) -> [UInt8] {
        (try? [UInt8](Data(contentsOf: url(relativePath)))) ?? []
    }

    /// File names of the real receipts in `Corpus/receipts/`, sorted.
    package static let realReceiptNames: [String] = {
        let directory = url("Corpus/receipts").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".receipt") }.sorted()
    }()

    /// The bytes of a real receipt by file name.
    package static func realReceipt(_ name: String) -> [UInt8] { bytes("Corpus/receipts/\(name)") }

    /// Whether the receipt is an Xcode/StoreKit one (signed by the StoreKit test certificate).
    package static func isXcodeReceipt(_ name: String) -> Bool {
        name.contains("xcode") || name.contains("storeKit")
    }

    package static let xcodeReceipt = "apple-xcode-app-receipt-with-transaction.receipt"
    package static let sandboxReceipt = "kvitto-sandboxReceipt.receipt"
    package static let largeReceipt = "tpinappreceipt-sandbox-legacy.receipt"

    /// Bytes from hex text (spaces allowed); empty for invalid text.
    package static func hex(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var high: UInt8?
        for character in text.utf8 {
            guard let nibble = character.hexNibble else { continue }
            if let pending = high {
                out.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return out
    }
}

extension UInt8 {
    var hexNibble: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return self - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

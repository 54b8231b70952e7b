import ReceiptASN1
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7

/// Deterministic receipt payloads shaped like real App Store ones, for tests, benchmarks and fuzz seeds.
/// The same parameters always give the same bytes.
public struct SyntheticReceipt: Sendable, Hashable {
    public var bundleID: String
    public var appVersion: String
    public var environment: String
    /// Creation date, RFC 3339.
    package var creationDate: String
    public var records: Int
    /// Seed for ids and dates.
    public var seed: UInt64

    public init(
        bundleID: String = "com.example.rcpt.synthetic", appVersion: String = "42",
        environment: String = "ProductionSandbox", creationDate: String = "2024-06-01T12:00:00Z",
        records: Int = 1, seed: UInt64 = 1
    ) {
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.environment = environment
        self.creationDate = creationDate
        self.records = records
        self.seed = seed
    }

    /// The payload's top-level attributes, in-app records included.
    public func attributes() -> [AttributeSpec] {
        var random = SplitMix64(seed: seed)
        var opaque: [UInt8] = []
        for _ in 0..<16 { opaque.append(UInt8(truncatingIfNeeded: random.next())) }
        var hash: [UInt8] = []
        for _ in 0..<20 { hash.append(UInt8(truncatingIfNeeded: random.next())) }
        var specs: [AttributeSpec] = [
            .utf8(0, environment),
            .integer(1, 0),
            .utf8(2, bundleID),
            .utf8(3, appVersion),
            .raw(4, opaque, version: 2),
            .raw(5, hash),
            .ia5(12, creationDate),
            .utf8(19, "1.0"),
            .ia5(18, "2020-01-01T00:00:00Z"),
        ]
        let base: Int64 = 1_577_836_800  // 2020-01-01T00:00:00Z
        let firstTransaction: Int64 = 1_000_000_000_000_000
        specs.reserveCapacity(specs.count + records)
        for index in 0..<records {
            let purchase = base + Int64(index) * 2_592_000 % 126_144_000 + Int64(random.next() % 86_400)
            let transaction = String(firstTransaction + Int64(index))
            let record: [AttributeSpec] = [
                .integer(1701, 1),
                .utf8(1702, "\(bundleID).product\(index % 5)"),
                .utf8(1703, transaction),
                .ia5(1704, ReceiptDate.format(epochSeconds: purchase)),
                .utf8(1705, String(firstTransaction)),
                .ia5(1706, ReceiptDate.format(epochSeconds: base)),
                .integer(1707, 3),
                .ia5(1708, ReceiptDate.format(epochSeconds: purchase + 2_592_000)),
                .integer(1711, 2_000_000_000_000 + Int64(index)),
                .ia5(1712, ""),
                .integer(1713, 0),
                .integer(1719, index == 0 ? 1 : 0),
                // Undocumented fields real records carry, mostly empty.
                .utf8(1709, ""),
                .integer(1710, 0),
                .utf8(1714, ""),
                .utf8(1715, ""),
                .utf8(1716, ""),
                .utf8(1717, ""),
                .utf8(1718, ""),
            ]
            specs.append(.record(record))
        }
        return specs
    }

    /// The DER payload (attribute SET in DER order).
    public func payload() -> [UInt8] { PayloadBuilder.attributeSet(attributes()) }
}

/// A small, fast, deterministic generator (Steele, Lea and Flood's SplitMix64).
public struct SplitMix64: Sendable, Hashable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

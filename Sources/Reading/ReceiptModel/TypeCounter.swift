/// Counts attribute types seen in one SET to spot duplicates, without hashing for the common type numbers
/// (0–63 in the receipt, 1700–1763 in records); other numbers fall back to a dictionary.
struct TypeCounter {
    private var lowSeen: UInt64 = 0
    private var lowTwice: UInt64 = 0
    private var inAppSeen: UInt64 = 0
    private var inAppTwice: UInt64 = 0
    private var others: [Int64: Int] = [:]

    /// Records one occurrence of `type`; true exactly when this is its second occurrence.
    @inline(__always)
    mutating func countAndCheckSecond(_ type: Int64) -> Bool {
        if type >= 0 && type < 64 {
            return Self.mark(&lowSeen, &lowTwice, UInt64(1) << UInt64(type))
        }
        if type >= 1700 && type < 1764 {
            return Self.mark(&inAppSeen, &inAppTwice, UInt64(1) << UInt64(type - 1700))
        }
        return countOther(type)
    }

    private mutating func countOther(_ type: Int64) -> Bool {
        others[type, default: 0] += 1
        return others[type] == 2
    }

    @inline(__always)
    private static func mark(_ seen: inout UInt64, _ twice: inout UInt64, _ bit: UInt64) -> Bool {
        if seen & bit == 0 {
            seen |= bit
            return false
        }
        if twice & bit == 0 {
            twice |= bit
            return true
        }
        return false
    }
}

import ReceiptBuilding

/// Edits of an RFC 3339 date's meaning, for fuzzing date readers: one field (year, month, day, hour, minute,
/// second, fraction) set to a boundary or to a number of its width the reader's code compares with, or the UTC offset
/// set to `Z`, a real-world offset or a compared number of minutes (a quarter-hour multiple) written `±HH:MM`, or a
/// separator swapped. libFuzzer
/// compares a parsed field with a constant as an integer, which byte mutations of the text rarely reach; written
/// into the field's digits, the constant does. Text without a date's shape is left to byte mutation (nil).
public struct DateTextMutator: Sendable {
    private var random: SplitMix64
    /// Numbers the code compares with (a libFuzzer dictionary's numeric words), drawn as field values and, when
    /// within a day, as offsets in minutes.
    public var numbers: [Int] = []

    public init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// The numeric words of a libFuzzer dictionary.
    public static func numbers(_ entries: [LibFuzzerDictionary.Entry]) -> [Int] {
        entries.compactMap { entry in
            guard entry.word.count <= 12 else { return nil }
            return Int(String(decoding: entry.word, as: UTF8.self))
        }
    }

    /// A date's fields as the mutator sees them: the digit runs in order, and where the UTC offset starts.
    struct Fields {
        var digitRuns: [Range<Int>] = []
        /// From the offset's `Z` or sign to the end, when the text has one after the seconds.
        var offset: Range<Int>?
    }

    /// The fields of `text`, when it has at least a date's three digit runs and starts with one.
    static func fields(_ text: [UInt8]) -> Fields? {
        var fields = Fields()
        var index = 0
        while index < text.count {
            if isDigit(text[index]) {
                let start = index
                while index < text.count, isDigit(text[index]) { index += 1 }
                fields.digitRuns.append(start..<index)
                continue
            }
            // After the time's seconds (and fraction): the offset runs to the end.
            if fields.digitRuns.count >= 6, fields.offset == nil,
                [UInt8(ascii: "Z"), UInt8(ascii: "z"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(text[index])
            {
                fields.offset = index..<text.count
                break
            }
            index += 1
        }
        guard fields.digitRuns.count >= 3, fields.digitRuns[0].lowerBound == 0 else { return nil }
        return fields
    }

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// Boundaries of each field, by its position (year, month, day, hour, minute, second).
    static let boundaries: [[Int]] = [
        [0, 1, 1969, 1970, 1999, 2000, 2038, 2100, 9999],
        [0, 1, 2, 12, 13, 99],
        [0, 1, 28, 29, 30, 31, 32, 99],
        [0, 12, 23, 24, 99],
        [0, 30, 59, 60, 99],
        [0, 59, 60, 61, 99],
    ]

    /// Offsets in minutes that exist (or existed) somewhere: UTC, India, Nepal, Newfoundland, the day's ends.
    static let offsets = [0, 60, -60, 330, 345, -210, 840, -720, 1439, -1439]

    /// `text` with one edit of its meaning, or nil when it has no date's shape.
    public mutating func mutate(_ text: [UInt8]) -> [UInt8]? {
        guard let fields = Self.fields(text) else { return nil }
        switch random.next() % 8 {
        case 0, 1, 2, 3:
            let position = Int(random.next() % UInt64(min(fields.digitRuns.count, 7)))
            let run = fields.digitRuns[position]
            if fields.offset.map({ $0.contains(run.lowerBound) }) ?? false { return setOffset(text, fields) }
            let value = fieldValue(position, width: run.count)
            return Array(text[..<run.lowerBound]) + Self.digits(value, width: run.count)
                + Array(text[run.upperBound...])
        case 4, 5:
            return setOffset(text, fields)
        default:
            return swapSeparator(text)
        }
    }

    /// A value for the field at `position`, `width` digits wide: half the time a compared number of that many digits
    /// (of fewer, zero-padded, when none has as many), else one of the field's boundaries.
    private mutating func fieldValue(_ position: Int, width: Int) -> Int {
        let fitting = numbers.filter { $0 >= 0 && String($0).count <= width }
        let exact = fitting.filter { String($0).count == width }
        let usable = exact.isEmpty ? fitting : exact
        if !usable.isEmpty, random.next() % 2 == 0 { return usable[Int(random.next() % UInt64(usable.count))] }
        let table = position < Self.boundaries.count ? Self.boundaries[position] : [0, 1, 5, 999, 999_999_999]
        return table[Int(random.next() % UInt64(table.count))]
    }

    /// `text` with its offset (or the end, when it has none) replaced by `Z` or `±HH:MM`.
    private mutating func setOffset(_ text: [UInt8], _ fields: Fields) -> [UInt8] {
        let start = fields.offset?.lowerBound ?? text.count
        // UTC offsets are whole quarter-hours within a day: the compared numbers that could be one.
        let compared = numbers.filter { abs($0) < 1440 && $0 != 0 && $0 % 15 == 0 }
        let minutes: Int
        switch random.next() % 4 {
        case 0: return Array(text[..<start]) + Array("Z".utf8)
        case 1 where !compared.isEmpty: minutes = compared[Int(random.next() % UInt64(compared.count))]
        default: minutes = Self.offsets[Int(random.next() % UInt64(Self.offsets.count))]
        }
        let sign = minutes < 0 ? "-" : "+"
        let magnitude = abs(minutes)
        let text = Array(text[..<start]) + Array(sign.utf8) + Self.digits(magnitude / 60, width: 2)
        return text + Array(":".utf8) + Self.digits(magnitude % 60, width: 2)
    }

    /// `text` with one separator swapped for a variant readers disagree on.
    private mutating func swapSeparator(_ text: [UInt8]) -> [UInt8] {
        let variants: [UInt8: [UInt8]] = [
            UInt8(ascii: "T"): Array("t _".utf8), UInt8(ascii: "t"): Array("T".utf8),
            UInt8(ascii: "-"): Array("/.".utf8), UInt8(ascii: ":"): Array(".".utf8),
            UInt8(ascii: "."): Array(",".utf8), UInt8(ascii: "Z"): Array("z".utf8),
        ]
        let places = text.indices.filter { variants[text[$0]] != nil }
        guard !places.isEmpty else { return text }
        let place = places[Int(random.next() % UInt64(places.count))]
        var edited = text
        let options = variants[text[place]] ?? []
        edited[place] = options[Int(random.next() % UInt64(options.count))]
        return edited
    }

    /// `value`'s decimal digits, zero-padded to `width` (longer when the value needs more).
    static func digits(_ value: Int, width: Int) -> [UInt8] {
        let text = Array(String(value.magnitude).utf8)
        return [UInt8](repeating: UInt8(ascii: "0"), count: max(0, width - text.count)) + text
    }
}

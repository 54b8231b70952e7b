import ReceiptASN1

/// The words of a libFuzzer dictionary (`-dict=FILE`: `name="word"` lines, `\xNN`, `\\` and `\"` escapes, `#`
/// comments), for a structure-aware mutator to draw values from what libFuzzer draws bytes from: the committed
/// dictionary and the words harvested from the harness's comparisons (`scripts/fuzz-words.py`).
public enum LibFuzzerDictionary {
    /// One line: its name (what comes before `=`, which libFuzzer ignores) and its word.
    public struct Entry: Sendable, Hashable {
        public let name: String
        public let word: [UInt8]
    }

    /// Every entry in `text`, in order; a line that is no entry is skipped.
    public static func entries(_ text: [UInt8]) -> [Entry] {
        var entries: [Entry] = []
        for line in text.split(separator: UInt8(ascii: "\n")) {
            guard line.first != UInt8(ascii: "#"), let open = line.firstIndex(of: UInt8(ascii: "\"")),
                let close = line.lastIndex(of: UInt8(ascii: "\"")), close > open,
                let word = unescaped(line[(open + 1)..<close]), !word.isEmpty
            else { continue }
            let name = line[..<open].split(separator: UInt8(ascii: "="), omittingEmptySubsequences: false).first
            entries.append(Entry(name: String(decoding: name ?? [], as: UTF8.self), word: word))
        }
        return entries
    }

    /// The entries of the `-dict=` argument's file; none without one or when it cannot be read.
    public static func entries(arguments: [String], read: (String) -> [UInt8]?) -> [Entry] {
        guard let path = arguments.last(where: { $0.hasPrefix("-dict=") })?.dropFirst("-dict=".count),
            let text = read(String(path))
        else { return [] }
        return entries(text)
    }

    static func unescaped(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        EscapedText.decode(bytes, marker: UInt8(ascii: "\\")) { index in
            guard index + 1 < bytes.endIndex else { return .invalid }
            guard bytes[index + 1] == UInt8(ascii: "x") else { return .decoded([bytes[index + 1]], length: 2) }
            guard let byte = EscapedText.hexByte(bytes, at: index + 2) else { return .invalid }
            return .decoded([byte], length: 4)
        }
    }
}

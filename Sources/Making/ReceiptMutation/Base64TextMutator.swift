import ReceiptASN1
import ReceiptBuilding

/// Edits of base64 text, for fuzzing the readers of pasted documents: the longest base64 run in the text (letters,
/// digits, both alphabets' two extra characters, padding and line breaks) is found, and either its shape is edited —
/// its last quantum cut to 0–3 characters and followed by 0–3 padding characters, a line break or space put
/// inside, one character swapped for the other alphabet's or for a byte no alphabet has — or what it encodes is
/// (`mutateDecoded`: the BER structure mutator, in a harness), and it is encoded again. Text without such a run is
/// left to byte mutation (nil).
public struct Base64TextMutator: Sendable {
    private var random: SplitMix64
    /// An edit of the decoded bytes; nil (or none set) leaves the text to an edit of its shape.
    public var mutateDecoded: (@Sendable ([UInt8]) -> [UInt8]?)?

    public init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// The shortest run taken as base64.
    static let minimumRun = 8

    /// `text` with its longest base64 run edited, or nil when it has none.
    public mutating func mutate(_ text: [UInt8]) -> [UInt8]? {
        guard let run = Self.longestRun(text) else { return nil }
        var edited = Array(text[run])
        switch below(6) {
        case 0, 1: edited = endQuantum(edited)
        case 2: edited = breakLine(edited)
        case 3: edited = swapCharacter(edited)
        default:
            if let mutateDecoded, let decoded = Self.decoded(edited), let changed = mutateDecoded(decoded) {
                edited = Array(Base64Codec.encode(changed, alphabet: .standard, padded: below(4) != 0).utf8)
            } else {
                edited = endQuantum(edited)
            }
        }
        return Array(text[..<run.lowerBound]) + edited + Array(text[run.upperBound...])
    }

    static func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "-"),
            UInt8(ascii: "_"), UInt8(ascii: "="):
            return true
        default: return false
        }
    }

    static func isLineBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

    /// The longest run of base64 characters and line breaks that starts and ends with a base64 character; padding
    /// ends a run (`receipt-data=MII…` is two).
    static func longestRun(_ text: [UInt8]) -> Range<Int>? {
        var best: Range<Int>?
        var index = 0
        while index < text.count {
            guard isBase64(text[index]), text[index] != UInt8(ascii: "=") else {
                index += 1
                continue
            }
            let start = index
            var end = index
            var padded = false
            while index < text.count, isBase64(text[index]) || isLineBreak(text[index]) {
                let byte = text[index]
                if byte == UInt8(ascii: "=") {
                    padded = true
                } else if padded, !isLineBreak(byte) {
                    break
                }
                if isBase64(byte) { end = index + 1 }
                index += 1
            }
            if end - start >= minimumRun, end - start > (best?.count ?? 0) { best = start..<end }
        }
        return best
    }

    /// The bytes of a run, whatever its alphabet, padding and line breaks; nil when it does not decode.
    static func decoded(_ run: [UInt8]) -> [UInt8]? {
        let letters = run.filter { !isLineBreak($0) && $0 != UInt8(ascii: "=") }
        guard case .success(let decoded) = Base64Codec.decode(letters, skippingWhitespace: false) else { return nil }
        return decoded.bytes
    }

    /// The run with its last quantum cut to 0–3 characters and 0–3 padding characters after it.
    private mutating func endQuantum(_ run: [UInt8]) -> [UInt8] {
        var body = run
        while let last = body.last, last == UInt8(ascii: "=") || isLineBreakOrSpace(last) { body.removeLast() }
        let letters = body.filter(Self.isBase64).count
        let remainder = below(4)
        let cut = (letters % 4 - remainder + 4) % 4
        var dropped = 0
        while dropped < cut, let last = body.last {
            body.removeLast()
            if Self.isBase64(last) { dropped += 1 }
        }
        return body + [UInt8](repeating: UInt8(ascii: "="), count: below(4))
    }

    private func isLineBreakOrSpace(_ byte: UInt8) -> Bool { Self.isLineBreak(byte) || byte == 0x20 }

    /// A line break (CRLF, LF, CR) or a space put inside, or the run wrapped at 64 or 76 characters.
    private mutating func breakLine(_ run: [UInt8]) -> [UInt8] {
        let breaks: [[UInt8]] = [[0x0A], [0x0D, 0x0A], [0x0D], [0x20]]
        let chosen = breaks[below(breaks.count)]
        if below(3) == 0 {
            let width = below(2) == 0 ? 64 : 76
            let letters = run.filter { !Self.isLineBreak($0) }
            var wrapped: [UInt8] = []
            for (index, byte) in letters.enumerated() {
                if index > 0, index % width == 0 { wrapped += chosen }
                wrapped.append(byte)
            }
            return wrapped
        }
        var edited = run
        edited.insert(contentsOf: chosen, at: 1 + below(max(1, run.count - 1)))
        return edited
    }

    /// One character swapped for its twin in the other alphabet, for padding, or for a byte neither alphabet has.
    private mutating func swapCharacter(_ run: [UInt8]) -> [UInt8] {
        var edited = run
        let place = below(run.count)
        let twins: [UInt8: UInt8] = [
            UInt8(ascii: "+"): UInt8(ascii: "-"), UInt8(ascii: "-"): UInt8(ascii: "+"),
            UInt8(ascii: "/"): UInt8(ascii: "_"), UInt8(ascii: "_"): UInt8(ascii: "/"),
        ]
        let strangers: [UInt8] = [UInt8(ascii: "="), UInt8(ascii: "."), UInt8(ascii: "*"), 0x00, 0x80, 0xFF]
        if let twin = twins[run[place]], below(2) == 0 {
            edited[place] = twin
        } else if below(2) == 0, let twinPlace = run.indices.first(where: { twins[run[$0]] != nil }) {
            edited[twinPlace] = twins[run[twinPlace]] ?? run[twinPlace]
        } else {
            edited[place] = strangers[below(strangers.count)]
        }
        return edited
    }

    private mutating func below(_ bound: Int) -> Int { bound > 0 ? Int(random.next() % UInt64(bound)) : 0 }
}

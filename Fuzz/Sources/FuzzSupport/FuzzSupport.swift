#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Helpers every harness shares: turning libFuzzer's buffer into bytes, keeping results alive past the optimiser,
/// and failing an oracle loudly.
public enum Fuzz {
    /// A copy of libFuzzer's input buffer. The library reads `[UInt8]`, and a copy keeps ASan able to see
    /// over-reads past the end of exactly `size` bytes.
    public static func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
        guard size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Whether `input` falls in a fixed sample of about one input in `oneIn`, chosen by an FNV-1a hash of its
    /// bytes: the same input always gives the same answer, so a failure found on the sample replays.
    public static func sample(_ input: [UInt8], oneIn: UInt64) -> Bool {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in input.prefix(256) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        hash ^= UInt64(input.count)
        return ((hash &* 0x9E37_79B9_7F4A_7C15) >> 32) % oneIn == 0
    }

    /// Prints both sides of a broken oracle to standard error and traps, so libFuzzer saves the input as a crash.
    public static func fail(_ harness: String, _ message: String, input: [UInt8]? = nil) -> Never {
        var text = "\n==== rcpt fuzz oracle failure in \(harness) ====\n\(message)\n"
        if let input {
            text += "input (\(input.count) bytes): \(hex(input.prefix(256)))\(input.count > 256 ? "…" : "")\n"
        }
        text += "====\n"
        var remaining = Array(text.utf8)[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            guard written > 0 else { break }
            remaining = remaining.dropFirst(written)
        }
        abort()
    }

    /// Lowercase hex, for messages.
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef")
        var text = ""
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}

/// Keeps `value` alive and observed, so the optimiser cannot drop the work that produced it.
@inline(never) @_optimize(none)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

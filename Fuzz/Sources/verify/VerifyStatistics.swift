import ReceiptValidation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How far inputs get: counted per process and printed to standard error when it exits (libFuzzer exits through
/// `exit`, so after `-max_total_time`, `-runs` and a corpus replay alike), as one line:
/// `verify: N inputs, S signature-valid (…%), C chain-valid, V valid`.
enum VerifyStatistics {
    nonisolated(unsafe) static var inputs = 0
    nonisolated(unsafe) static var receipts = 0
    nonisolated(unsafe) static var signatureValid = 0
    nonisolated(unsafe) static var chainValid = 0
    nonisolated(unsafe) static var valid = 0
    nonisolated(unsafe) static var mutations: [Int] = [0, 0, 0]

    /// Mutator strategies, in the order `mutations` counts them.
    enum Strategy: Int { case catalogue, payloadEdit, plain }

    static func count(_ inspection: ReceiptInspection) {
        inputs += 1
        if inspection.receipt != nil { receipts += 1 }
        if inspection.verification?.signature == .valid { signatureValid += 1 }
        if inspection.verification?.chain == .valid { chainValid += 1 }
        if inspection.isValid { valid += 1 }
    }

    static func count(_ strategy: Strategy) { mutations[strategy.rawValue] += 1 }

    static func reportAtExit() {
        atexit {
            VerifyStatistics.print()
        }
    }

    static func print() {
        func share(_ part: Int) -> String {
            guard inputs > 0 else { return "-" }
            let tenths = part * 1000 / inputs
            return "\(tenths / 10).\(tenths % 10)%"
        }
        let text =
            "verify: \(inputs) inputs, \(receipts) receipts read, \(signatureValid) signature-valid "
            + "(\(share(signatureValid))), \(chainValid) chain-valid (\(share(chainValid))), \(valid) valid "
            + "(\(share(valid))); mutator: \(mutations[0]) catalogue, \(mutations[1]) payload edits, "
            + "\(mutations[2]) plain\n"
        var remaining = Array(text.utf8)[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            guard written > 0 else { break }
            remaining = remaining.dropFirst(written)
        }
    }
}

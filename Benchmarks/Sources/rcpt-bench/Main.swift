import Foundation
import ReceiptModel

/// `rcpt-bench parse FILE --engine rcpt|swift-asn1 [--iterations N]`: decodes FILE fully N times in-process and
/// prints one line: engine, bytes, records, seconds per iteration, MB/s, records/s, and the decode tally (which
/// must be equal for both engines). `rcpt-bench hostile DIR --ca CA_DIR`: writes the worst-case shapes
/// (`HostileShapes`). `rcpt-bench index FILE`: the payload index's size against the input's. `rcpt-bench verifier
/// DIR`: the library's front door from a task group (`VerifierThroughput`).
@main
enum Main {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.count >= 2, arguments[0] == "verifier" {
            await VerifierThroughput.run(directory: arguments[1])
            return
        }
        if arguments.count >= 2, arguments[0] == "hostile", let ca = value(of: "--ca", in: arguments) {
            do {
                try HostileShapes.write(to: arguments[1], caDirectory: ca)
            } catch {
                FileHandle.standardError.write(Data("rcpt-bench hostile: \(error)\n".utf8))
                exit(2)
            }
            return
        }
        if arguments.count >= 2, arguments[0] == "index", let data = FileManager.default.contents(atPath: arguments[1])
        {
            let receipt = Receipt.read([UInt8](data))
            let cost = receipt.payload?.index.memoryCost ?? 0
            print(
                String(
                    format: "index bytes=%d entries=%d index_bytes=%d ratio=%.3f", data.count,
                    receipt.payload?.index.entryCount ?? 0, cost, Double(cost) / Double(max(1, data.count))))
            return
        }
        guard arguments.count >= 2, arguments[0] == "parse",
            let data = FileManager.default.contents(atPath: arguments[1])
        else {
            FileHandle.standardError.write(
                Data("usage: rcpt-bench parse FILE [--engine rcpt|swift-asn1] [--iterations N]\n".utf8))
            exit(2)
        }
        let engine = value(of: "--engine", in: arguments) ?? "rcpt"
        let iterations = max(1, Int(value(of: "--iterations", in: arguments) ?? "1") ?? 1)
        let bytes = [UInt8](data)
        var tally = DecodeTally()
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for _ in 0..<iterations {
                switch engine {
                case "swift-asn1": tally = (try? SwiftASN1Engine.decode(bytes)) ?? DecodeTally()
                default: tally = RcptEngine.decode(bytes)
                }
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let perIteration = seconds / Double(iterations)
        let megabytesPerSecond = Double(bytes.count) / 1e6 / perIteration
        let recordsPerSecond = Double(tally.records) / perIteration
        print(
            String(
                format: "%@ bytes=%d records=%d seconds=%.6f mbps=%.2f rps=%.0f %@", engine, bytes.count,
                tally.records, perIteration, megabytesPerSecond, recordsPerSecond, tally.description))
    }

    static func value(of flag: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }
}

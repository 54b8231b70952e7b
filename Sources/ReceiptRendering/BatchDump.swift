import Foundation
import ReceiptModel
import ReceiptValidation
import Synchronization

/// Counts of a batch run.
public struct BatchSummary: Sendable, Hashable {
    public var receipts = 0
    /// Read completely (valid or not).
    public var read = 0
    /// Read completely and valid.
    public var valid = 0
    /// Missing, not a receipt, or malformed.
    public var unreadable = 0
}

/// Dumps many receipts as JSON Lines: one compact `rcpt.dump/1` object per input (with a leading `file` member),
/// in input order, inspected in parallel. An input that cannot be read is an object with an `error` too.
public struct BatchDump: Sendable {
    public var paths: [String]
    public var jobs: Int
    public var options: InspectionOptions

    public init(paths: [String], jobs: Int, options: InspectionOptions) {
        self.paths = paths
        self.jobs = max(1, jobs)
        self.options = options
    }

    /// Every regular, non-hidden file in each directory of `arguments` (sorted), and each other argument as is.
    public static func expand(_ arguments: [String]) -> [String] {
        var paths: [String] = []
        for argument in arguments {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
                for name in names.sorted() where !name.hasPrefix(".") {
                    let path = (argument as NSString).appendingPathComponent(name)
                    var nested: ObjCBool = false
                    if FileManager.default.fileExists(atPath: path, isDirectory: &nested), !nested.boolValue {
                        paths.append(path)
                    }
                }
            } else {
                paths.append(argument)
            }
        }
        return paths
    }

    private struct Progress: ~Copyable {
        var next = 0
        var nextToEmit = 0
        var done: [Int: [UInt8]] = [:]
        var summary = BatchSummary()
    }

    /// Inspects every path on `jobs` threads and hands each line to `emit` in input order, then returns the counts.
    /// `progress` is told how many are done, serially.
    public func run(emit: @Sendable ([UInt8]) -> Void, progress: @Sendable (Int, Int) -> Void) -> BatchSummary {
        let state = Mutex(Progress())
        let total = paths.count
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(total, 1))) { _ in
            while true {
                let index: Int? = state.withLock { shared in
                    guard shared.next < total else { return nil }
                    defer { shared.next += 1 }
                    return shared.next
                }
                guard let index else { return }
                let (line, outcome) = inspectLine(paths[index])
                state.withLock { shared in
                    shared.done[index] = line
                    shared.summary.receipts += 1
                    switch outcome {
                    case .valid:
                        shared.summary.read += 1
                        shared.summary.valid += 1
                    case .invalid:
                        shared.summary.read += 1
                    case .unreadable:
                        shared.summary.unreadable += 1
                    }
                    // Emit every finished line that is next in input order.
                    while let ready = shared.done.removeValue(forKey: shared.nextToEmit) {
                        emit(ready)
                        shared.nextToEmit += 1
                        progress(shared.nextToEmit, total)
                    }
                }
            }
        }
        return state.withLock { $0.summary }
    }

    private enum Outcome { case valid, invalid, unreadable }

    /// One JSON line for `path` and what it was.
    private func inspectLine(_ path: String) -> ([UInt8], Outcome) {
        var json = JSONWriter(pretty: false)
        guard let data = FileManager.default.contents(atPath: path) else {
            json.object { json in
                json.member("file", path)
                json.member("schema", DumpJSON.schema)
                json.key("error")
                json.object { json in
                    json.member("layer", "input")
                    json.member("code", "unreadable")
                    json.member("offset", 0)
                    json.member("message", "cannot read \(path)")
                }
                json.member("valid", false)
            }
            return (json.bytes + [0x0A], .unreadable)
        }
        let inspection = Inspector.inspect([UInt8](data), options: options)
        DumpJSON.write(inspection, file: path, to: &json)
        let outcome: Outcome = inspection.readError != nil ? .unreadable : (inspection.isValid ? .valid : .invalid)
        return (json.bytes + [0x0A], outcome)
    }
}

import Dispatch

/// Work spread over threads with the results in input order: `conformance --jobs` and `fuzz-validator` run their
/// validators, and judge their inputs, this way.
package enum Parallel {
    /// `body(i)` for every i below `count`, `jobs` at a time, in order.
    package static func map<Result: Sendable>(_ count: Int, jobs: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
        let results = UnsafeMutableBufferPointer<Result?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        let slots = SendableBuffer(results)
        let lanes = max(1, min(jobs, count))
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            var index = lane
            while index < count {
                slots.buffer[index] = body(index)
                index += lanes
            }
        }
        return results.compactMap { $0 }
    }
}

/// A buffer each worker of `Parallel.map` writes distinct slots of.
struct SendableBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
    init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}

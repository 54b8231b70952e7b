import Dispatch

/// A value computed once: on another thread when that pays (a large input's digest, computed while the reading pass
/// reads it), else on the first thread to ask. `value` waits for it. The work must not depend on which thread runs
/// it, so nothing the user sees does either.
final class BackgroundValue<Value: Sendable>: @unchecked Sendable {
    /// Inputs smaller than this are worked on when asked for, on the asking thread: handing them to another
    /// thread would cost more than it saves.
    static var backgroundThreshold: Int { 1 << 20 }

    private let work: @Sendable () -> Value
    /// Written once, by the background work before `done` is signalled or by the asking thread; read after.
    private var result: Value?
    private let done: DispatchGroup?

    /// Starts `work` on another thread when `size` (the bytes it reads) is at least `backgroundThreshold`.
    init(size: Int, _ work: @escaping @Sendable () -> Value) {
        self.work = work
        guard size >= Self.backgroundThreshold else {
            done = nil
            return
        }
        let done = DispatchGroup()
        self.done = done
        done.enter()
        DispatchQueue.global(qos: .userInitiated).async {
            self.result = work()
            done.leave()
        }
    }

    /// The value, waiting for the background work if there is some.
    var value: Value {
        done?.wait()
        if let result { return result }
        let computed = work()
        result = computed
        return computed
    }
}

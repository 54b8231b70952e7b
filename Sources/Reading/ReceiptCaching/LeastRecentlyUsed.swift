/// A bounded map that forgets its least recently used entry when full: the storage of the process-wide caches
/// (`SharedCache`, the chain verification cache). Not thread safe by itself: each cache holds one in a `Mutex`.
package struct LeastRecentlyUsed<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    package let capacity: Int
    private var entries: [Key: (value: Value, used: UInt64)] = [:]
    private var clock: UInt64 = 0

    /// A map of at most `capacity` entries (at least one).
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
        entries.reserveCapacity(self.capacity)
    }

    package var count: Int { entries.count }

    /// The value of `key`, marked as just used.
    package mutating func value(_ key: Key) -> Value? {
        guard let index = entries.index(forKey: key) else { return nil }
        clock &+= 1
        entries.values[index].used = clock
        return entries.values[index].value
    }

    /// Sets the value of `key`; when that makes one entry too many, the least recently used one goes (a linear scan:
    /// only a miss pays it, over a few hundred entries at most).
    package mutating func set(_ key: Key, _ value: Value) {
        clock &+= 1
        entries[key] = (value, clock)
        guard entries.count > capacity,
            let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key
        else { return }
        entries[oldest] = nil
    }

    package mutating func removeAll() { entries.removeAll(keepingCapacity: true) }
}

/// A bounded map that forgets its least recently used entry when full: the storage of the process-wide caches
/// (`SharedCache`, the chain verification cache). Not thread safe by itself: each cache holds one in a `Mutex`.
///
/// At most `keysPerHash` entries share a hash value: a key whose hash that many entries already have is not kept.
/// The caches hash their byte keys by samples (`SampledBytes`), so documents made alike at the samples collide; a
/// lookup then compares against at most that many of them, never against a whole cache of kilobyte keys (a status
/// fuzzing campaign's mutated headers did that, and a lookup took the campaign's one-second limit).
package struct LeastRecentlyUsed<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    package let capacity: Int
    private var entries: [Key: (value: Value, used: UInt64)] = [:]
    /// How many entries have each hash value.
    private var sharing: [Int: Int] = [:]
    private var clock: UInt64 = 0

    /// The most entries kept whose keys share one hash value.
    package static var keysPerHash: Int { 4 }

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

    /// Sets the value of `key` (unless `keysPerHash` entries already share its hash); when that makes one entry too
    /// many, the least recently used one goes (a linear scan: only a miss pays it, over a few hundred entries at most).
    package mutating func set(_ key: Key, _ value: Value) {
        clock &+= 1
        if let index = entries.index(forKey: key) {
            entries.values[index] = (value, clock)
            return
        }
        let hash = key.hashValue
        guard sharing[hash, default: 0] < Self.keysPerHash else { return }
        entries[key] = (value, clock)
        sharing[hash, default: 0] += 1
        guard entries.count > capacity,
            let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key
        else { return }
        entries[oldest] = nil
        let oldestHash = oldest.hashValue
        if let shared = sharing[oldestHash], shared > 1 {
            sharing[oldestHash] = shared - 1
        } else {
            sharing[oldestHash] = nil
        }
    }

    package mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        sharing.removeAll(keepingCapacity: true)
    }
}

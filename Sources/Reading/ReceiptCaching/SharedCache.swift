import Synchronization

/// A bounded map shared by threads: a `LeastRecentlyUsed` behind a lock, the storage of every process-wide cache
/// (certificates, x5c elements, token headers). What a cache keeps must be a function of its key alone, so that a
/// value found is the one computing it again would give: the caches never change what a reader sees.
package final class SharedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let entries: Mutex<LeastRecentlyUsed<Key, Value>>

    /// A cache of at most `capacity` entries (at least one).
    package init(capacity: Int) {
        entries = Mutex(LeastRecentlyUsed(capacity: capacity))
    }

    /// The value kept for `key`, marked as just used.
    package func value(_ key: Key) -> Value? { entries.withLock { $0.value(key) } }

    /// Keeps `value` for `key`, forgetting the least recently used entry when full.
    package func set(_ key: Key, _ value: Value) { entries.withLock { $0.set(key, value) } }

    /// The value kept for `key`, else `make`'s, kept when it is not nil.
    package func value(_ key: Key, else make: () -> Value?) -> Value? {
        if let known = value(key) { return known }
        guard let made = make() else { return nil }
        set(key, made)
        return made
    }

    /// Forgets every entry (tests judge with a cold cache so).
    package func removeAll() { entries.withLock { $0.removeAll() } }

    /// How many entries it holds.
    package var count: Int { entries.withLock { $0.count } }

    /// Runs `body` on the entries, under the lock.
    package func withEntries<Result>(_ body: (inout LeastRecentlyUsed<Key, Value>) -> Result) -> Result {
        entries.withLock { body(&$0) }
    }
}

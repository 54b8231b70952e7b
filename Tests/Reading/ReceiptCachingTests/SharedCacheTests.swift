import ReceiptCaching
import Testing

/// The caches' storage: bounded, the least recently used entry forgotten, keys compared in full whatever their
/// samples, safe from many threads.
@Suite("Shared caches")
struct SharedCacheTests {
    @Test("full, it forgets the least recently used entry; a lookup counts as a use")
    func leastRecentlyUsed() {
        var entries = LeastRecentlyUsed<Int, String>(capacity: 2)
        entries.set(1, "one")
        entries.set(2, "two")
        #expect(entries.value(1) == "one")  // 2 is now the least recently used
        entries.set(3, "three")
        #expect(entries.count == 2)
        #expect(entries.value(2) == nil)
        #expect(entries.value(1) == "one")
        #expect(entries.value(3) == "three")
        #expect(LeastRecentlyUsed<Int, Int>(capacity: 0).capacity == 1)
    }

    @Test("bytes that share every sample are still different keys; equal bytes are one key")
    func sampledBytes() {
        let base = [UInt8](repeating: 0x41, count: 1000)
        var other = base
        other[500 + 20] = 0x42  // past the middle sample's 16 bytes: the samples agree, the bytes do not
        #expect(SampledBytes(base).hashValue == SampledBytes(other).hashValue)
        #expect(SampledBytes(base) != SampledBytes(other))
        #expect(SampledBytes(base) == SampledBytes(Array(base)))
        for count in [0, 1, 7, 8, 9, 33] {
            let bytes = (0..<count).map { UInt8($0) }
            var changed = bytes
            if count > 0 { changed[count - 1] ^= 0xFF }
            #expect(SampledBytes(bytes) == SampledBytes(bytes), "\(count)")
            #expect(count == 0 || SampledBytes(bytes) != SampledBytes(changed), "\(count)")
        }
        #expect(SampledBytes([1, 2]) != SampledBytes([1, 2, 0]))
        var colliding: [SampledBytes: Int] = [:]
        colliding[SampledBytes(base)] = 1
        colliding[SampledBytes(other)] = 2
        #expect(colliding.count == 2)
        #expect(colliding[SampledBytes(base)] == 1)
    }

    /// A key whose every value hashes alike: the worst a hostile input can make of a sampled hash.
    struct Colliding: Hashable, Sendable {
        var id: Int
        func hash(into hasher: inout Hasher) { hasher.combine(0) }
    }

    @Test("at most keysPerHash entries share a hash; one forgotten makes room for another")
    func collidingKeysAreBounded() {
        var entries = LeastRecentlyUsed<Colliding, Int>(capacity: 8)
        for id in 0..<10 { entries.set(Colliding(id: id), id) }
        let limit = LeastRecentlyUsed<Colliding, Int>.keysPerHash
        #expect(entries.count == limit)
        for id in 0..<limit { #expect(entries.value(Colliding(id: id)) == id) }
        #expect(entries.value(Colliding(id: limit)) == nil)
        entries.set(Colliding(id: 0), 100)  // an entry kept is updated, whatever the limit
        #expect(entries.value(Colliding(id: 0)) == 100)
        // Full of other keys, the colliding ones are forgotten one by one; each makes room for another.
        var small = LeastRecentlyUsed<Colliding, Int>(capacity: 1)
        small.set(Colliding(id: 1), 1)
        small.set(Colliding(id: 2), 2)
        #expect(small.count == 1)
        #expect(small.value(Colliding(id: 2)) == 2)
        for id in 3..<20 { small.set(Colliding(id: id), id) }
        #expect(small.value(Colliding(id: 19)) == 19)
        small.removeAll()
        for id in 0..<10 { entries.set(Colliding(id: 100 + id), id) }
        #expect(entries.count <= limit)
    }

    @Test("headers alike at every sample are kept a few at most, and each is still found by its own bytes")
    func sampledCollisionsAreBounded() {
        let cache = SharedCache<SampledBytes, Int>(capacity: 256)
        let base = [UInt8](repeating: 0x41, count: 4000)
        for index in 0..<200 {
            var bytes = base
            bytes[2100 + index] = 0x42  // between the samples
            _ = cache.value(SampledBytes(bytes), else: { index })
        }
        #expect(cache.count == LeastRecentlyUsed<SampledBytes, Int>.keysPerHash)
        var first = base
        first[2100] = 0x42
        #expect(cache.value(SampledBytes(first)) == 0)
        #expect(cache.value(SampledBytes(base)) == nil)
    }

    @Test("one value per key from many threads; make runs only on a miss, and a nil is not kept")
    func shared() async {
        let cache = SharedCache<Int, Int>(capacity: 64)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for key in 0..<200 { _ = cache.value(key % 32, else: { key % 32 * 10 + task * 0 }) }
                }
            }
        }
        #expect(cache.count == 32)
        for key in 0..<32 { #expect(cache.value(key) == key * 10) }
        #expect(cache.value(99, else: { nil }) == nil)
        #expect(cache.value(99) == nil)
        #expect(cache.value(5, else: { 0 }) == 50)
    }
}

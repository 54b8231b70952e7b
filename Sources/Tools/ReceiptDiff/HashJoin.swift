/// Matches two lists of items by key with a hash table: linear in their total length, never pairwise.
enum HashJoin {
    /// For each left item, the index of the right item with the same key; equal keys pair in order of
    /// occurrence (the first left with the first right, and so on). Items without a key match nothing.
    static func match<Key: Hashable>(_ left: [Key?], _ right: [Key?]) -> [Int?] {
        var partner = [Int?](repeating: nil, count: left.count)
        matchLeftovers(left, right, partner: &partner)
        return partner
    }

    /// Matches the left items that have no partner yet to the right items no left item has, by key.
    static func matchLeftovers<Key: Hashable>(_ left: [Key?], _ right: [Key?], partner: inout [Int?]) {
        var taken = [Bool](repeating: false, count: right.count)
        for case let index? in partner where index < taken.count { taken[index] = true }
        // For each key, the first free right index; `next` chains the later ones with the same key.
        var heads: [Key: Int] = [:]
        var next = [Int](repeating: -1, count: right.count)
        for index in right.indices.reversed() where !taken[index] {
            guard let key = right[index] else { continue }
            next[index] = heads[key] ?? -1
            heads[key] = index
        }
        guard !heads.isEmpty else { return }
        for index in left.indices where partner[index] == nil {
            guard let key = left[index], let found = heads[key] else { continue }
            partner[index] = found
            heads[key] = next[found] >= 0 ? next[found] : nil
        }
    }

    /// Pairs, in order, the unpartnered left items that `leftEligible` accepts with the unpartnered right items
    /// that `rightEligible` accepts: the position fallback.
    static func matchByPosition(
        left: Int, right: Int, partner: inout [Int?], leftEligible: (Int) -> Bool,
        rightEligible: (Int) -> Bool
    ) {
        var taken = [Bool](repeating: false, count: right)
        for case let index? in partner where index < taken.count { taken[index] = true }
        var rightIndex = 0
        for index in 0..<left where partner[index] == nil && leftEligible(index) {
            while rightIndex < right && (taken[rightIndex] || !rightEligible(rightIndex)) { rightIndex += 1 }
            guard rightIndex < right else { return }
            partner[index] = rightIndex
            taken[rightIndex] = true
            rightIndex += 1
        }
    }
}

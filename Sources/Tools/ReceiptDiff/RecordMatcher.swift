/// Matches in-app records of A and B with hash joins, in tiers:
/// 1. by transaction id (1703);
/// 2. what is left, by original transaction id (1705) and purchase date (1704) together;
/// 3. what is left, by position: first records without a transaction id on both sides, then records without
///    one on either side. Two records with different transaction ids are never paired by position: one was
///    removed and the other added.
/// Equal keys pair in order of occurrence. Linear in the number of records.
enum RecordMatcher {
    /// The ids of tier 2, both required.
    struct OriginalKey: Hashable {
        var originalTransactionID: String
        var purchaseDate: String
    }

    /// For each record of A, the index of its partner in B, if any.
    static func match(_ a: [RecordEntry], _ b: [RecordEntry]) -> [Int?] {
        var partner = HashJoin.match(a.map(\.transactionID), b.map(\.transactionID))
        HashJoin.matchLeftovers(a.map(originalKey), b.map(originalKey), partner: &partner)
        HashJoin.matchByPosition(
            left: a.count, right: b.count, partner: &partner,
            leftEligible: { a[$0].transactionID == nil },
            rightEligible: { b[$0].transactionID == nil })
        HashJoin.matchByPosition(
            left: a.count, right: b.count, partner: &partner,
            leftEligible: { a[$0].transactionID == nil }, rightEligible: { _ in true })
        HashJoin.matchByPosition(
            left: a.count, right: b.count, partner: &partner, leftEligible: { _ in true },
            rightEligible: { b[$0].transactionID == nil })
        return partner
    }

    /// The tier-2 key, when the record has both ids.
    static func originalKey(_ entry: RecordEntry) -> OriginalKey? {
        guard let original = entry.originalTransactionID, let date = entry.purchaseDate else { return nil }
        return OriginalKey(originalTransactionID: original, purchaseDate: date)
    }
}

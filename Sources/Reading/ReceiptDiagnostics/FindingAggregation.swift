extension Array where Element == Finding {
    /// How many findings of one code are listed one by one before the rest are counted.
    package static var aggregationLimit: Int { 16 }

    /// The findings with at most `limit` of each code listed one by one; the rest of a code become one finding of
    /// that code (at the first one left out) that counts them, with the count as the `more` field (a finding that
    /// already has one passes as it is). Repeated
    /// anomalies (400 000 duplicate names) are said once, not printed 400 000 times.
    package func aggregated(limit: Int = aggregationLimit) -> [Finding] {
        var seen: [String: Int] = [:]
        var overflow: [String: (first: Finding, count: Int)] = [:]
        var order: [String] = []
        var kept: [Finding] = []
        kept.reserveCapacity(Swift.min(count, 64))
        for finding in self {
            // A finding that already counts others (its `more` field) is kept as it is.
            if finding.fields.contains(where: { $0.name == "more" }) {
                kept.append(finding)
                continue
            }
            let count = seen[finding.code, default: 0]
            seen[finding.code] = count + 1
            if count < limit {
                kept.append(finding)
            } else if let existing = overflow[finding.code] {
                overflow[finding.code] = (existing.first, existing.count + 1)
            } else {
                overflow[finding.code] = (finding, 1)
                order.append(finding.code)
            }
        }
        for code in order {
            guard let (first, more) = overflow[code] else { continue }
            kept.append(
                Finding(
                    first.kind, severity: first.severity, at: first.offset,
                    "\(more) more \(code) findings like the \(limit) above (the first at offset \(first.offset.map(String.init) ?? "?"))",
                    fields: [FindingField("more", String(more))]))
        }
        return kept
    }
}

import ReceiptVerifyReceipt

/// What Apple's server knows beyond the receipt, as the stand-in tells it: `latest_receipt_info` holds the
/// receipt's subscription records, and each subscription's latest record either renewed until 30 days after the
/// request (the customer kept paying) or expired the day before it (the customer stopped).
enum ServerState {
    /// The records with an `expires_date`, each subscription's latest one renewed past `requestDate`.
    static func latestReceiptInfo(_ inApp: [ResponseValue], renewedAfter requestDate: AppleDate) -> [ResponseValue] {
        latest(inApp, expiringAt: requestDate.milliseconds &+ VerifyReceiptStandIn.renewalMilliseconds)
    }

    /// The records with an `expires_date`, each subscription's latest one expired a day before `requestDate`.
    static func latestReceiptInfo(_ inApp: [ResponseValue], lapsedBefore requestDate: AppleDate) -> [ResponseValue] {
        latest(inApp, expiringAt: requestDate.milliseconds &- 86_400_000)
    }

    private static func latest(_ inApp: [ResponseValue], expiringAt milliseconds: Int64) -> [ResponseValue] {
        let subscriptions = inApp.filter { VerifyReceiptStandIn.member("expires_date_ms", of: $0) != nil }
        var latestIndex: [String: (index: Int, expires: Int64)] = [:]
        for (index, record) in subscriptions.enumerated() {
            let original = text(VerifyReceiptStandIn.member("original_transaction_id", of: record)) ?? ""
            let expires = text(VerifyReceiptStandIn.member("expires_date_ms", of: record)).flatMap { Int64($0) } ?? 0
            if let known = latestIndex[original], known.expires >= expires { continue }
            latestIndex[original] = (index, expires)
        }
        let latestIndices = Set(latestIndex.values.map(\.index))
        return subscriptions.enumerated().map { index, record in
            guard latestIndices.contains(index) else { return record }
            return expiring(record, at: AppleDate(milliseconds: milliseconds))
        }
    }

    private static func text(_ value: ResponseValue?) -> String? {
        guard case .string(let text) = value else { return nil }
        return text
    }

    /// `record` with its three `expires_date` keys at `date`.
    private static func expiring(_ record: ResponseValue, at date: AppleDate) -> ResponseValue {
        guard case .object(let members) = record else { return record }
        let replacement = Dictionary(
            uniqueKeysWithValues: VerifyReceiptResponse.dateMembers("expires_date", date).map { ($0.0, $0.1) })
        return .object(members.map { name, value in (name, replacement[name] ?? value) })
    }
}

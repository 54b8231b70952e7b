import ReceiptDiagnostics

/// The one meaning of "a purchase grants its service at an instant", for every reader of it: `verify`'s
/// `subscription-active` finding on a receipt's records and on a JWS transaction, and `rcpt status`.
///
/// Apple defines a transaction's service by three dates (App Store Server API, JWSTransactionDecodedPayload):
/// `purchaseDate`, "the time the App Store charged the user's account for a purchase … or a renewal";
/// `expiresDate`, "the time the subscription expires or renews"; and `revocationDate`, "the time the App Store
/// refunded the transaction or revoked it from Family Sharing" (a receipt's `cancellation_date`: "treat a canceled
/// receipt the same as if no purchase had ever been made"). A period grants service from its purchase (inclusive) to
/// its expiry (exclusive), unless revoked by then. Instants are milliseconds since 1970; a receipt's whole seconds
/// are given as milliseconds, so nothing is rounded before the comparison.
package struct ServicePeriod: Sendable, Hashable {
    package var purchased: Int64?
    package var expires: Int64?
    package var revoked: Int64?

    package init(purchased: Int64?, expires: Int64?, revoked: Int64? = nil) {
        self.purchased = purchased
        self.expires = expires
        self.revoked = revoked
    }

    /// Whether the period grants service at `instant` (milliseconds): bought by then (a period with no purchase
    /// date is taken as bought before any instant), not yet expired (one with no expiry grants none), not revoked
    /// by then.
    package func grantsService(at instant: Int64) -> Bool {
        guard let expires, expires > instant else { return false }
        if let purchased, purchased > instant { return false }
        if let revoked, revoked <= instant { return false }
        return true
    }

    /// Whether the period has not begun at `instant` and is not over by then: bought later (a transaction signed a
    /// few seconds before its purchaseDate, as Apple's servers' clocks allow), neither active nor expired.
    package func startsAfter(_ instant: Int64) -> Bool {
        guard let purchased, purchased > instant, let expires, expires > instant else { return false }
        return revoked.map { $0 > instant } ?? true
    }

    /// The finding that says the period's state at `instant`: active, not yet begun, or expired.
    package func stateCode(at instant: Int64) -> FindingCode {
        grantsService(at: instant)
            ? .subscriptionActive : startsAfter(instant) ? .subscriptionNotStarted : .subscriptionExpired
    }

    /// `seconds` since 1970 as milliseconds, saturating (an evaluation time in whole seconds).
    package static func milliseconds(_ seconds: Int64) -> Int64 {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? (seconds < 0 ? Int64.min : Int64.max) : product
    }
}

/// Where one fact of `rcpt status` stands: the document (as named on the command line), the path inside it (a
/// token's member, a nested token's claim, a receipt's in-app record), the byte offset where that piece starts in
/// the document, when it was signed, and how far it is to be trusted.
package struct StatusEvidence: Sendable, Hashable {
    /// How far a fact is to be trusted.
    package enum Trust: String, Sendable, Hashable {
        /// From a document that verifies: the only facts `rcpt status` counts by default.
        case verified
        /// From a document that does not verify, counted because `--include-unverified` asked for it.
        case unverified
        /// From Apple's verifyReceipt response JSON: Apple's decoding, never signed (also only with
        /// `--include-unverified`).
        case unsigned
    }

    package var document: String
    /// `in_app[2]`, `signedTransactions[0]`, `signedPayload → data.signedTransactionInfo`; empty for a file that is
    /// one token.
    package var path: String
    /// Where the record or the (outermost) token starts in the document; nil when the document holds it elsewhere
    /// than at a byte position (a value of Apple's unsigned JSON keeps its offset in that JSON).
    package var offset: Int?
    /// `receipt-record`, `transaction`, `renewal-info` or `verifyreceipt-latest-receipt-info`,
    /// `verifyreceipt-pending-renewal-info`.
    package var kind: String
    /// When the fact was signed, in milliseconds since 1970: a JWS payload's `signedDate`, a receipt's creation date.
    package var signedDate: Int64?
    /// The notification that carried the fact (`REFUND`, `DID_FAIL_TO_RENEW/GRACE_PERIOD`), when one did.
    package var notification: String?
    package var trust: Trust
    /// Read from a page of an App Store Server API history that says more pages follow (`hasMore`): it tells what
    /// it holds, never that nothing else happened (the pages after it may hold a renewal).
    package var fromPartialPage = false

    package init(
        document: String, path: String, offset: Int?, kind: String, signedDate: Int64?,
        notification: String? = nil, trust: Trust
    ) {
        self.document = document
        self.path = path
        self.offset = offset
        self.kind = kind
        self.signedDate = signedDate
        self.notification = notification
        self.trust = trust
    }

    /// Evidence for a statement read on its own, outside `rcpt status` (verify's purchase findings, the summary):
    /// no document, path or offset, its trust unknown (so never counted as verified).
    package static func unplaced(kind: String, signedDate: Int64?) -> StatusEvidence {
        StatusEvidence(document: "", path: "", offset: nil, kind: kind, signedDate: signedDate, trust: .unverified)
    }
}

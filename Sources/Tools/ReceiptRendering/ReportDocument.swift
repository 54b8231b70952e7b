import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptPKCS7
import ReceiptPurchases
import ReceiptStatus
import ReceiptValidation

/// Everything the HTML report shows of one inspected document, with every fact tied to bytes: the byte spaces (a
/// receipt's DER; a JWS's text, each part's decoded bytes, each x5c certificate, nested tokens' own), the structure
/// over each space (`ReportTree`), the verdict, the findings at their offsets, the certificate chains with their
/// validity, and the purchase events for the timeline. `HTMLReport` writes it into the page.
package struct ReportDocument {
    /// How the page reads a space's bytes: DER (values by their tag), JSON text, other text, or raw bytes.
    enum SpaceKind: String { case der, json, text, raw }

    /// Where a decoded space's bytes come from: base64 (or base64url) characters from `start` in another space.
    struct Source {
        var space: Int
        var start: Int
        var length: Int
        var alphabet: String
    }

    struct Space {
        var label: String
        var kind: SpaceKind
        var bytes: [UInt8]
        var source: Source?
        var tree: ReportTree
    }

    /// A finding (or the error that stopped reading) and where it points on the page.
    struct Mark {
        var severity: String
        var code: String
        var message: String
        /// The space and offset the finding points at, when it points into one the page shows.
        var space: Int?
        var offset: Int?

        init(severity: String, code: String, message: String, space: Int?, offset: Int?) {
            self.severity = severity
            self.code = code
            self.message = message
            self.space = space
            self.offset = offset
        }

        init(_ finding: Finding, space: Int?, offset: Int?) {
            self.init(
                severity: finding.severity.rawValue, code: finding.code, message: finding.message, space: space,
                offset: offset)
        }
    }

    struct ChainCertificate {
        var subject: String
        var notBefore: Int64
        var notAfter: Int64
        var space: Int
        var range: Range<Int>
    }

    struct Chain {
        var title: String
        var certificates: [ChainCertificate]
        var evaluatedAt: Int64?
        var verdict: String
    }

    /// Where a token is: its path, the space holding its text and where it starts there, and the spaces of its
    /// decoded parts.
    struct TokenPlace {
        var path: String
        var kind: String
        var holder: Int
        var offset: Int
        var parts: [JWSToken.Part: Int]
    }

    struct Event {
        /// Milliseconds since the epoch.
        var time: Int64
        var kind: String
        var product: String
        var transaction: String
        /// Where the statement is: a receipt's in-app record, or the date claim in a token's decoded payload.
        var space: Int?
        var offset: Int?
    }

    /// What the verdict rests on: the root the chain ended at, whether it was given with --root, and the time the
    /// chain was evaluated at and where that time came from.
    struct Trust {
        var anchor: String?
        var customRoots: Bool
        var evaluatedAt: Int64?
        var evaluatedAtSource: String?
    }

    /// The most events the timeline draws (a 100 000-record receipt has 200 000); the count of all is kept.
    static let maximumEvents = 4000
    /// The most nodes a generic DER walk adds to one space.
    static let maximumDERNodes = 200_000

    package var name: String
    package var document: Inspection
    var spaces: [Space] = []
    var labels = Labels()
    var marks: [Mark] = []
    var chains: [Chain] = []
    var events: [Event] = []
    var eventCount = 0
    var tokens: [TokenPlace] = []
    var trust: Trust
    /// Each token's decoded payload by its full path (as `rcpt status` names it: carriers first, joined by →).
    var payloads: [String: (space: Int, payload: JSONDocument?)] = [:]
    /// Whether the document was found inside a larger input (a log line, a JSON string, base64 text).
    var isWrapped: Bool
    /// What the document said of itself, for the top of the page.
    var headline: String

    /// `bytes` are what the reader read (the document as the classifier found it in the input); `input` the input
    /// itself; `customRoots` whether the anchors were given with --root.
    package init(name: String, document: Inspection, bytes: [UInt8], input: [UInt8], customRoots: Bool) {
        self.name = name
        self.document = document
        headline = ""
        trust = Trust(anchor: nil, customRoots: customRoots, evaluatedAt: nil, evaluatedAtSource: nil)
        isWrapped = bytes != input
        if let inspection = document.receipt { addReceipt(inspection, bytes: bytes) }
        if let inspection = document.jws { addJWS(inspection, bytes: bytes) }
        addEvents(document, bytes: bytes)
        if let error = document.readError {
            // The error that stopped reading is listed first, marked where reading stopped.
            marks.insert(
                Mark(
                    severity: "error", code: error.code, message: "reading stopped: " + error.message,
                    space: error.offset == nil || spaces.isEmpty ? nil : 0, offset: error.offset), at: 0)
        }
    }

    /// The document's own space (space 0), with every finding marked where it points in it (a repair of the input
    /// points at no place in the document).
    mutating func addInputSpace(
        _ label: String, kind: SpaceKind, bytes: [UInt8], tree: ReportTree, findings: [Finding]
    ) {
        spaces.append(Space(label: label, kind: kind, bytes: bytes, source: nil, tree: tree))
        marks = findings.map { finding in
            finding.code == FindingCode.inputRepaired.rawValue
                ? Mark(finding, space: nil, offset: nil) : Mark(finding, space: 0, offset: finding.offset)
        }
    }

    /// Interned labels: a million attributes share a few dozen names.
    struct Labels {
        var list: [String] = [""]
        var index: [String: Int] = ["": 0]

        mutating func id(_ label: String) -> Int {
            if let found = index[label] { return found }
            list.append(label)
            index[label] = list.count - 1
            return list.count - 1
        }
    }

    // MARK: - Timeline

    /// Purchases, renewals, expiries and revocations the document states, from the same reading `rcpt status` uses:
    /// its signed statements only (Apple's unsigned verifyReceipt decoding beside a receipt is anyone's to edit, and
    /// drawn it read as the receipt's own).
    mutating func addEvents(_ document: Inspection, bytes: [UInt8]) {
        let statements = StatusDocument(name: name, document: document, input: bytes)
        var all: [Event] = []
        let isReceipt = document.kind == .receipt
        // A receipt's statements point at their in-app record; a token's at the date claim in its decoded payload.
        func place(_ evidence: StatusEvidence, claim: String) -> (Int?, Int?) {
            if isReceipt { return (evidence.offset == nil ? nil : 0, evidence.offset) }
            guard let (space, payload) = payloads[evidence.path] else { return (nil, nil) }
            guard let payload, let node = payload.member(claim, of: payload.root) else { return (space, 0) }
            return (space, payload.nodes[node].start)
        }
        func event(
            _ time: Int64, _ kind: String, _ product: String, _ transaction: String,
            _ evidence: StatusEvidence, claim: String
        ) -> Event {
            let (space, offset) = place(evidence, claim: claim)
            return Event(
                time: time, kind: kind, product: product, transaction: transaction, space: space, offset: offset)
        }
        for fact in statements.transactions {
            let transaction = fact.transactionID ?? "?"
            let renewal = fact.originalTransactionID != nil && fact.originalTransactionID != fact.transactionID
            if let date = fact.purchaseDate {
                all.append(
                    event(
                        date, renewal ? "renewal" : "purchase", fact.productID, transaction, fact.evidence,
                        claim: "purchaseDate"))
            }
            if let date = fact.expiresDate {
                all.append(event(date, "expiry", fact.productID, transaction, fact.evidence, claim: "expiresDate"))
            }
            if let date = fact.revocationDate {
                all.append(
                    event(
                        date, fact.revocationReason.map { "revocation (\($0))" } ?? "revocation",
                        fact.productID, transaction, fact.evidence, claim: "revocationDate"))
            }
        }
        for fact in statements.renewals {
            let product = fact.productID ?? fact.autoRenewProductID ?? "?"
            let transaction = fact.originalTransactionID ?? "?"
            if let date = fact.renewalDate {
                all.append(event(date, "next renewal", product, transaction, fact.evidence, claim: "renewalDate"))
            }
            if let date = fact.gracePeriodExpiresDate {
                all.append(
                    event(
                        date, "grace period ends", product, transaction, fact.evidence,
                        claim: "gracePeriodExpiresDate"))
            }
        }
        eventCount = all.count
        all.sort { ($0.time, $0.product, $0.kind) < ($1.time, $1.product, $1.kind) }
        if all.count > Self.maximumEvents {
            // Evenly spread over the whole history, first and last kept.
            let step = Double(all.count - 1) / Double(Self.maximumEvents - 1)
            all = (0..<Self.maximumEvents).map { all[Int((Double($0) * step).rounded())] }
        }
        events = all
    }
}

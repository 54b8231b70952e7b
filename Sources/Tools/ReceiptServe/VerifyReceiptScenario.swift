import ReceiptJSON
import ReceiptSuite

/// One way Apple's verifyReceipt endpoint can answer a backend, and what a careful backend does with it: the
/// catalogue `rcpt serve --scenario` serves and `rcpt serve --judge` runs a backend through.
package struct VerifyReceiptScenario: Sendable, Hashable {
    package var name: String
    /// What the stand-in answers, in one sentence.
    package var summary: String
    /// What a careful backend does with the purchase: grant it (accept) or not (reject).
    package var expected: ExpectedVerdict
    /// Who could make the backend see this answer for a receipt they send it.
    package var attacker: Attacker
    /// What granting (or refusing) costs, in one sentence.
    package var threat: String
    package var answer: Answer

    /// What the stand-in does to Apple's answer for the posted receipt.
    package enum Answer: Sendable, Hashable {
        /// The answer `--format verifyreceipt` makes for the receipt, with server state (`latest_receipt_info`).
        case genuine
        /// A status code and nothing else (with `receipt` for 21006, `is-retryable` for 21100–21199).
        case status(Int)
        /// 21007 from the production endpoint whatever the receipt; the sandbox endpoint answers as for a genuine
        /// sandbox receipt.
        case sandboxRetry
        /// The genuine answer with another `bundle_id`.
        case otherBundleID
        /// The genuine answer with no purchase: `in_app` empty, no `latest_receipt_info`.
        case noPurchases
        /// The genuine answer whose server state shows every subscription expired a day before the request.
        case subscriptionLapsed
        /// An HTTP error status with a text body, as a load balancer in front of an unavailable endpoint gives.
        case httpError(Int)
        /// HTTP 200 whose body is not JSON.
        case notJSON
        /// A body of the user's own (a scenario file, or a JSON object posted to `/rcpt/scenario`), served as it
        /// is, whatever was posted.
        case literal([UInt8], status: Int?)
    }

    /// A scenario that answers `body`, a JSON object, as it is: nil when `body` is not one.
    package static func literal(name: String, body: [UInt8]) -> VerifyReceiptScenario? {
        let limits = JSONLimits(maximumDepth: 64, maximumNodes: 1_000_000, maximumSize: 16 << 20)
        guard let document = try? JSONDocument.read(body, limits: limits), document.nodes.first?.kind == .object
        else { return nil }
        let status = document.member("status", of: document.root).flatMap { Int(document.text($0)) }
        return VerifyReceiptScenario(
            name: name, summary: "the answer in \(name) (status \(status.map(String.init) ?? "none"))",
            expected: .reject, attacker: .anyone, threat: "an answer of the user's own",
            answer: .literal(body, status: status))
    }

    /// Whether the answer says Apple could not judge the receipt now (unavailable, an internal error, a body that
    /// is not its own): a backend may then answer 502, 503 or 504 so that its client retries, which refuses
    /// nothing and grants nothing.
    package var isAppleUnavailable: Bool {
        switch answer {
        case .httpError, .notJSON: return true
        case .status(let code): return code == 21005 || code == 21009 || (21100...21199).contains(code)
        default: return false
        }
    }

    /// The scenario named `name`, if the catalogue has one.
    package static func named(_ name: String) -> VerifyReceiptScenario? { catalogue.first { $0.name == name } }

    /// Every scenario, the genuine answer first.
    package static let catalogue: [VerifyReceiptScenario] =
        [
            VerifyReceiptScenario(
                name: "genuine",
                summary:
                    "Apple's answer for the posted receipt (status 0 from the endpoint of its environment, 21007 for a sandbox receipt posted to production), with the subscription active in latest_receipt_info",
                expected: .accept, attacker: .replay,
                threat:
                    "the customer's own purchase: refusing it turns paying customers away (the run stops, as nothing else can be judged)",
                answer: .genuine),
            VerifyReceiptScenario(
                name: "sandbox-retry",
                summary:
                    "21007 from the production endpoint (a sandbox receipt, as App Review's purchases are); the sandbox endpoint answers it as valid",
                expected: .accept, attacker: .anyone,
                threat:
                    "Apple's documented flow is to retry at the sandbox endpoint: a backend that does not refuses App Review's purchases and the app is rejected; one that grants on 21007 without retrying grants for free, as any sandbox tester's purchase costs nothing",
                answer: .sandboxRetry),
        ]
        + statusCodes.map { status in
            VerifyReceiptScenario(
                name: "status-\(status.code)", summary: "status \(status.code): \(status.meaning)", expected: .reject,
                attacker: status.attacker, threat: status.threat, answer: .status(status.code))
        }
        + [
            VerifyReceiptScenario(
                name: "other-bundle-id",
                summary: "the genuine answer, but the receipt's bundle_id is another app's (com.example.other-app)",
                expected: .reject, attacker: .replay,
                threat:
                    "a genuine receipt of any other app verifies at Apple too: a backend that does not compare bundle_id grants for another app's purchases",
                answer: .otherBundleID),
            VerifyReceiptScenario(
                name: "no-purchases",
                summary: "the genuine answer with no purchase: in_app empty, no latest_receipt_info",
                expected: .reject, attacker: .replay,
                threat:
                    "every install has a valid receipt: a backend that grants on status 0 alone grants to anyone who installed the app",
                answer: .noPurchases),
            VerifyReceiptScenario(
                name: "subscription-lapsed",
                summary:
                    "the genuine answer whose latest_receipt_info shows every subscription expired the day before the request",
                expected: .reject, attacker: .replay,
                threat:
                    "a customer who stopped paying keeps the receipt: a backend that ignores expires_date grants a lapsed subscription forever",
                answer: .subscriptionLapsed),
            VerifyReceiptScenario(
                name: "http-503",
                summary: "HTTP 503 with a text body: the endpoint unavailable",
                expected: .reject, attacker: .anyone,
                threat:
                    "an outage, or anyone who can slow Apple's endpoint down: a backend that grants when it cannot ask grants for free, one that crashes answers 5xx",
                answer: .httpError(503)),
            VerifyReceiptScenario(
                name: "not-json",
                summary: "HTTP 200 whose body is an HTML page, not JSON",
                expected: .reject, attacker: .anyone,
                threat:
                    "a captive portal or proxy answering for Apple: a backend must refuse what it cannot read, not crash or grant",
                answer: .notJSON),
            VerifyReceiptScenario(
                name: "genuine-again",
                summary:
                    "the genuine answer once more, after every other: the receipt is the customer's, Apple is back",
                expected: .accept, attacker: .anyone,
                threat:
                    "an outage, a malformed answer, or anyone who can slow Apple's endpoint down once: a backend that remembers the refusal keeps a paying customer locked out",
                answer: .genuine),
        ]

    /// Apple's status codes other than 0, 21007 and 21008: Apple's meaning, who could make a backend see it, and
    /// what granting on it costs.
    package static let statusCodes: [(code: Int, meaning: String, attacker: Attacker, threat: String)] = [
        (
            21000, "the request was not made using the HTTP POST method", .anyone,
            "a backend that grants on any answer but an error it expects grants for free"
        ),
        (
            21002, "the data in the receipt-data property was malformed", .anyone,
            "anyone gets it by sending random receipt-data: a backend that grants on any answer but 0 grants for free"
        ),
        (
            21003, "the receipt could not be authenticated", .anyone,
            "anyone gets it with a forged receipt: a backend that grants on it grants for free"
        ),
        (
            21004, "the shared secret does not match the one on file for the account", .anyone,
            "a misconfigured secret makes every receipt answer so: a backend that grants on it grants anything anyone sends"
        ),
        (
            21005, "the receipt server was temporarily unable to provide the receipt", .anyone,
            "Apple could not judge the receipt (an outage): a backend that grants then grants whatever anyone sends during it"
        ),
        (
            21006, "this receipt is valid but the subscription has expired (the receipt is decoded in the answer)",
            .replay,
            "a customer who stopped paying keeps the receipt: a backend that sees a decoded receipt and grants, whatever the status, grants a lapsed subscription"
        ),
        (
            21009, "internal data access error", .anyone,
            "Apple could not judge the receipt: a backend that grants then grants whatever anyone sends"
        ),
        (
            21010, "the user account cannot be found or has been deleted", .replay,
            "a receipt of a deleted account still reads well: a backend that grants on it grants to an account Apple no longer has"
        ),
        (
            21100, "internal data access error, is-retryable true", .anyone,
            "Apple could not judge the receipt and says to retry: a backend that grants then grants whatever anyone sends"
        ),
    ]
}

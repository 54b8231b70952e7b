import ReceiptModel

/// When to evaluate certificate validity and expiry, for every document kind: at the document's own signing time
/// (the default: a receipt's creation date, a JWS payload's `signedDate`; Apple's leaf certificates last about two
/// years), now, or a given instant.
public enum EvaluationTime: Sendable, Hashable {
    case signed
    case now
    case date(ReceiptDate)

    /// Parses `creation`, `now`, an RFC 3339 time (`2024-01-31T12:00:00Z`), a date (`2024-01-31`, midnight UTC)
    /// or epoch milliseconds (`1706702400000`, as verifyReceipt's `_ms` fields); nil for anything else.
    package init?(argument: String) {
        switch argument {
        case "creation", "signed": self = .signed
        case "now": self = .now
        default:
            if argument.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
                guard let milliseconds = Self.milliseconds(argument) else { return nil }
                let seconds = milliseconds / 1000
                guard case .success(let date) = ReceiptDate.parse(ReceiptDate.format(epochSeconds: seconds)) else {
                    return nil
                }
                self = .date(date)
                return
            }
            let text = argument.count == 10 ? argument + "T00:00:00Z" : argument
            guard case .success(let date) = ReceiptDate.parse(text) else { return nil }
            self = .date(date)
        }
    }

    /// The epoch milliseconds an argument of digits gives (at most 15, as verifyReceipt's `_ms` fields); nil for
    /// any other text, and for nine or ten digits (`looksLikeSeconds`): a time in epoch seconds, which read as
    /// milliseconds would be a day of 1970, when no App Store document was signed.
    package static func milliseconds(_ argument: String) -> Int64? {
        guard !argument.isEmpty, argument.count <= 15, argument.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            !looksLikeSeconds(argument)
        else { return nil }
        return Int64(argument)
    }

    /// Whether `argument` is nine or ten digits: epoch seconds (2001 to 2286), not milliseconds.
    package static func looksLikeSeconds(_ argument: String) -> Bool {
        (9...10).contains(argument.utf8.count) && argument.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// What a refusal of `argument` adds when it looks like epoch seconds: how to write it in milliseconds.
    package static func secondsHint(_ argument: String) -> String {
        looksLikeSeconds(argument)
            ? " (\(argument) looks like epoch seconds; times here are epoch milliseconds: \(argument)000)" : ""
    }

    /// The instant in unix seconds for a document signed at `signed` (unix seconds: a receipt's creation date, a JWS
    /// payload's signing claim; nil when it has none), and whether it fell back to `now` for want of one. Every kind
    /// resolves its evaluation and status times here.
    package func resolve(signed: Int64?, now: Int64) -> (seconds: Int64, fellBack: Bool) {
        switch self {
        case .now: return (now, false)
        case .date(let date): return (date.secondsSinceEpoch, false)
        case .signed:
            guard let signed else { return (now, true) }
            return (signed, false)
        }
    }
}

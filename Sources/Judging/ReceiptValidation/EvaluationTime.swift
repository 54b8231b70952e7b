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
            if !argument.isEmpty, argument.count <= 15, argument.allSatisfy(\.isASCII), argument.allSatisfy(\.isNumber),
                let milliseconds = Int64(argument)
            {
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

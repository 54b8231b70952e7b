import Foundation
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
               let milliseconds = Int64(argument) {
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

    /// The instant in unix seconds for `receipt`, and whether it fell back to now for want of a creation date.
    package func resolve(for receipt: Receipt, now: Int64 = Int64(Date().timeIntervalSince1970))
        -> (seconds: Int64, fellBack: Bool)
    {
        switch self {
        case .now: return (now, false)
        case .date(let date): return (date.secondsSinceEpoch, false)
        case .signed:
            guard let created = receipt.creationDate else { return (now, true) }
            return (created.secondsSinceEpoch, false)
        }
    }
}

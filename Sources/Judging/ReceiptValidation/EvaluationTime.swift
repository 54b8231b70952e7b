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
                guard let milliseconds = Self.milliseconds(argument),
                    let instant = Self.instant(milliseconds: milliseconds)
                else { return nil }
                self = instant
                return
            }
            let text = argument.count == 10 ? argument + "T00:00:00Z" : argument
            guard case .success(let date) = ReceiptDate.parse(text) else { return nil }
            self = .date(date)
        }
    }

    /// The time `milliseconds` after 1970 (before it when negative), to the second: what `status --at` names, for
    /// the receipt checks judged then (a licence's expiration_date); nil outside the years ReceiptDate writes.
    package static func instant(milliseconds: Int64) -> EvaluationTime? {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        guard case .success(let date) = ReceiptDate.parse(ReceiptDate.format(epochSeconds: seconds)) else { return nil }
        return .date(date)
    }

    /// The epoch milliseconds an argument of digits gives (12 to 15 digits: 1973 to 33658, as verifyReceipt's `_ms`
    /// fields); nil for any other text, and for fewer digits: a compact date (`20240301`) or epoch seconds read as
    /// milliseconds would be a day of 1970, when no App Store document was signed (`digitsHint` says which).
    package static func milliseconds(_ argument: String) -> Int64? {
        guard (12...15).contains(argument.utf8.count), argument.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int64(argument)
    }

    /// What a refusal of `argument` adds when it is digits too few for epoch milliseconds: a compact date
    /// (`20240301`: write 2024-03-01), epoch seconds (nine or ten digits: append 000), or a time of 1970.
    package static func digitsHint(_ argument: String) -> String {
        let digits = Array(argument.utf8)
        guard !digits.isEmpty, digits.count < 12, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return "" }
        if digits.count == 8 {
            let text = argument
            let date = "\(text.prefix(4))-\(text.dropFirst(4).prefix(2))-\(text.suffix(2))"
            if case .success = ReceiptDate.parse(date + "T00:00:00Z") {
                return " (\(argument) looks like a date without its dashes: write \(date))"
            }
        }
        if (9...10).contains(digits.count) {
            return " (\(argument) looks like epoch seconds; times here are epoch milliseconds: \(argument)000)"
        }
        return " (as epoch milliseconds \(argument) is a time of 1970; they have 13 digits today)"
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

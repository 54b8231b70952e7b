import ReceiptJWS
import ReceiptModel

/// A millisecond instant in UTC, RFC 3339 (milliseconds shown when there are any): how every JWS date is shown.
package enum MillisecondUTC {
    /// The instants of years 1 to 9999 (what a date can be written as), in milliseconds since 1970.
    package static let years1To9999: Range<Int64> = -62_135_596_800_000..<253_402_300_800_000

    /// A date claim's number (`1646387016000`) in UTC; nil when it is no whole number of milliseconds in years 1 to
    /// 9999.
    package static func text(ofClaim number: String) -> String? {
        guard let milliseconds = JWSToken.milliseconds(number), years1To9999.contains(milliseconds) else {
            return nil
        }
        return text(milliseconds)
    }

    package static func text(_ milliseconds: Int64) -> String {
        // Years 1 to 9999 only; anything else (Int64.min included) is said as the number it is.
        guard years1To9999.contains(milliseconds) else {
            return "\(milliseconds) ms"
        }
        let remainder = milliseconds % 1000
        let seconds = milliseconds / 1000 - (remainder < 0 ? 1 : 0)
        return ReceiptDate.format(
            epochSeconds: seconds, nanosecond: Int(remainder < 0 ? remainder + 1000 : remainder) * 1_000_000)
    }
}

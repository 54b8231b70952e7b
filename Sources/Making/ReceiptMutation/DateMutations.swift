import Foundation
import ReceiptDiagnostics
import ReceiptModel
import ReceiptSuite

/// Expiry, cancellation and impossible or malformed dates.
enum DateMutations {
    static let day: Int64 = 86_400

    static let all: [Mutation] =
        [
            Mutation(
                "receipt-expired", .dates, layer: "attribute", expected: .reject, finding: .receiptExpired,
                "the receipt's expiration date (type 21) is the day before its creation date"
            ) { workspace in
                workspace.setDate(21, seconds: workspace.creationSeconds - day)
            },
            Mutation(
                "creation-in-future", .dates, layer: "attribute", expected: .reject,
                finding: .creationDateInFuture, "the creation date is in 2090"
            ) { workspace in
                workspace.setText(12, "2090-01-01T00:00:00Z", ia5: true)
            },
            Mutation(
                "creation-before-original-purchase", .dates, layer: "attribute", expected: .reject,
                finding: .creationBeforeOriginalPurchase,
                "the receipt is created before the app's original purchase date (type 18)"
            ) { workspace in
                workspace.setDate(18, seconds: workspace.creationSeconds + day)
            },
        ]
        + [
            ("february-30", "2024-02-30T00:00:00Z"), ("trailing-nul-junk", "2024-01-01T00:00:00Z\u{0}junk"),
            ("hour-24", "2024-01-01T24:00:00Z"), ("second-60", "2024-01-01T23:59:60Z"),
            ("no-zone", "2024-01-01T00:00:00"), ("empty", ""),
        ].map { label, text in
            Mutation(
                "creation-date-\(label)", .dates, layer: "attribute", expected: .reject,
                finding: text.isEmpty ? .creationDateMissing : .valueInvalidDate,
                "the creation date is \"\(text.replacingOccurrences(of: "\u{0}", with: "\\0"))\""
            ) { workspace in
                workspace.setText(12, text, ia5: true)
            }
        }
}

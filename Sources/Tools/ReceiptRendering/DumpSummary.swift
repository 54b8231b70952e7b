import ReceiptDiagnostics
import ReceiptModel
import ReceiptValidation

/// The top of the text dump, for a support engineer: who the receipt is for, the verdict in one line, and the
/// purchases as a table sorted by purchase date (at most `maximumRows`; the full listing follows it).
package struct DumpSummary {
    let style: TextStyle

    package init(style: TextStyle) { self.style = style }
    /// The most purchases listed (the most recent ones when there are more).
    static let maximumRows = 100

    func render(_ inspection: ReceiptInspection) -> String {
        var out = "\n" + style.bold("Summary") + "\n"
        let payload = inspection.receipt?.payload
        func text(_ type: Int64) -> String {
            switch payload?.first(type)?.value {
            case .text(let value)?: return TerminalText.safe(value)
            case .date(let value, _)?: return value.isEmpty ? "-" : TerminalText.safe(value)
            case .integer(let number)?: return String(number)
            default: return "-"
            }
        }
        for (label, type) in [
            ("bundle id", Int64(2)), ("environment", 0), ("app version", 3),
            ("original version", 19), ("created", 12),
        ] {
            out += "  " + style.dim(TextLayout.rightPad(label, 18)) + text(type) + "\n"
        }
        out += "  " + style.dim(TextLayout.rightPad("verdict", 18)) + verdict(inspection) + "\n"
        if let payload { out += purchases(payload, partial: inspection.readError != nil) }
        return out
    }

    /// "valid", or "invalid: code, code …", or "unreadable: why".
    func verdict(_ inspection: ReceiptInspection) -> String {
        if let error = inspection.readError {
            return VerdictWord.unreadable.styled(style) + ": " + TerminalText.safe(error.message)
        }
        let errors = inspection.findings.filter { $0.severity == .error }.map(\.code)
        guard !errors.isEmpty else { return VerdictWord.valid.styled(style) }
        var unique: [String] = []
        for code in errors where !unique.contains(code) { unique.append(code) }
        let shown = unique.prefix(5).joined(separator: ", ") + (unique.count > 5 ? ", …" : "")
        return VerdictWord.invalid.styled(style) + " (\(errors.count) error\(errors.count == 1 ? "" : "s"): \(shown))"
    }

    struct Row {
        var purchased: Int64
        var cells: [String]
    }

    /// The purchases table; `partial` when reading stopped at an error, so the list may miss purchases after it.
    package func purchases(_ payload: ReceiptPayload, partial: Bool = false) -> String {
        let records = payload.inAppRecords
        let unread = partial ? " (reading stopped at the error: there may be more)" : ""
        guard !records.isEmpty else {
            return "  " + style.dim(TextLayout.rightPad("purchases", 18)) + (partial ? "none read" : "none") + unread
                + "\n"
        }
        // Purchase dates first (views, no allocation), then rows only for the records shown.
        var dated: [(purchased: Int64, index: Int)] = []
        dated.reserveCapacity(records.count)
        for index in records.indices {
            let purchased = records[index].first(.purchaseDate)?.date?.secondsSinceEpoch ?? Int64.min
            dated.append((purchased, index))
        }
        dated.sort { ($0.purchased, $0.index) < ($1.purchased, $1.index) }
        let shown = dated.suffix(Self.maximumRows)
        // A cancellation is a refund, or an upgrade when another product of the same original transaction was bought
        // at that second (Apple dates a receipt's upgrade so; verify's purchase-upgraded): said which, as verify does.
        var bought: [String: Set<String>] = [:]  // "original second" → the products bought then
        for record in records {
            if let original = record.first(.originalTransactionID)?.text,
                let seconds = record.first(.purchaseDate)?.date?.secondsSinceEpoch
            {
                bought["\(original) \(seconds)", default: []].insert(record.first(.productID)?.text ?? "")
            }
        }
        func upgraded(_ record: InAppRecord) -> Bool {
            guard let original = record.first(.originalTransactionID)?.text,
                let seconds = record.first(.cancellationDate)?.date?.secondsSinceEpoch,
                let products = bought["\(original) \(seconds)"]
            else { return false }
            return !products.subtracting([record.first(.productID)?.text ?? ""]).isEmpty
        }
        let header = ["product", "transaction", "purchased", "expires", "cancelled", "trial"]
        let columns: [InAppField: Int] = [
            .productID: 0, .transactionID: 1, .purchaseDate: 2, .expiresDate: 3, .cancellationDate: 4,
            .isTrialPeriod: 5,
        ]
        var rows: [[String]] = [header]
        for entry in shown {
            let record = records[entry.index]
            var cells = [String](repeating: "-", count: header.count)
            for attribute in record.attributes {
                guard let type = attribute.type, let field = InAppField(rawValue: type), let column = columns[field]
                else { continue }
                guard cells[column] == "-" else { continue }
                switch attribute.value {
                case .text(let value): cells[column] = TerminalText.safe(value)
                case .date(let value, _): cells[column] = value.isEmpty ? "-" : TerminalText.safe(value)
                case .integer(let number) where column == 5:
                    cells[column] = number == 1 ? "yes" : number == 0 ? "no" : String(number)
                case .boolean(let flag) where column == 5: cells[column] = flag ? "yes" : "no"
                case .integer(let number): cells[column] = String(number)
                default: cells[column] = "?"
                }
            }
            if cells[4] != "-" { cells[4] += upgraded(record) ? " (upgrade)" : " (refund)" }
            rows.append(cells)
        }
        let widths = header.indices.map { column in min(44, rows.map { $0[column].count }.max() ?? 0) }
        var out =
            "  " + style.dim(TextLayout.rightPad("purchases", 18)) + "\(records.count), by purchase date"
            + (records.count > shown.count ? " (the \(shown.count) most recent)" : "") + unread + "\n"
        for (index, row) in rows.enumerated() {
            var line = row.enumerated().map { column, cell in TextLayout.rightPad(cell, widths[column]) }
                .joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            out += "    " + (index == 0 ? style.dim(line) : line) + "\n"
        }
        return out
    }
}

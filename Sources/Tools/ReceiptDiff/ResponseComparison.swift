import ReceiptASN1
import ReceiptCrypto
import ReceiptJSON
import ReceiptValidation

/// One side of a response diff: a verifyReceipt response body read as JSON (Apple's, as captured, or one rcpt made
/// from a receipt with `--format verifyreceipt`).
package struct ResponseInput: Sendable {
    package var name: String
    package var document: JSONDocument
    /// The file the side was read from: a response (`verifyreceipt-response`), or a receipt whose
    /// `--format verifyreceipt` form is `document` (offsets then point into that form, not the file).
    package var input: InputSummary

    /// A response body as read from a file of `bytes`.
    package init(name: String, response document: JSONDocument, bytes: [UInt8]) {
        self.name = name
        self.document = document
        input = InputSummary(of: bytes, format: "verifyreceipt-response")
    }

    /// The `--format verifyreceipt` form `document` of the receipt `inspection` read.
    package init(name: String, verifyReceiptForm document: JSONDocument, of inspection: ReceiptInspection) {
        self.name = name
        self.document = document
        input = inspection.input
        input.format += " as verifyreceipt"
    }
}

/// Compares two verifyReceipt response bodies field by field: what Apple said against what a receipt holds (or
/// two captured responses). Paths start at `response`: `response.status`, `response.receipt.bundle_id`,
/// `response.receipt.in_app[transaction_id=…].expires_date_ms`. In-app entries are matched by `transaction_id`
/// (`#N` for a repeated one), by position when they have none. Not compared: `request_date*` (the time of each
/// request) and the server's state that no receipt holds (`latest_receipt_info`, `latest_receipt`,
/// `pending_renewal_info`, `is-retryable`).
package enum ResponseComparison {
    /// Top-level members that are the server's state, not the receipt's.
    package static let serverState: Set<String> = [
        "latest_receipt_info", "latest_receipt", "pending_renewal_info",
        "is-retryable",
    ]
    /// Members of `receipt` that depend on the request, not the receipt.
    package static let requestTime: Set<String> = ["request_date", "request_date_ms", "request_date_pst"]

    /// Compares A with B under `options`: their verdicts as `rcpt verify` gives them, when given (`verdicts`: each
    /// side's inspection; two inputs verify judges differently are never equal, a red team's trial found a response
    /// whose `latest_receipt` signature was broken "equal" to the genuine one), then the `response` layer.
    package static func compare(
        _ a: ResponseInput, _ b: ResponseInput, verdicts: (a: Inspection, b: Inspection)? = nil,
        options: DiffOptions = DiffOptions()
    ) -> DiffResult {
        var sink = ChangeSink(options: options)
        if let verdicts, options.compares(.verification) {
            VerdictComparison.compare(verdicts.a, verdicts.b, into: &sink)
        }
        if options.compares(.response) {
            compareObjects(
                a.document, a.document.root, b.document, b.document.root, path: DiffPath("response"),
                skipping: serverState, into: &sink)
        }
        var result = DiffResult(
            a: side(a), b: side(b), changes: sink.changes, ignoredCount: sink.ignoredCount,
            hiddenEncodingCount: sink.hiddenEncodingCount)
        result.unusedIgnorePatterns = zip(options.ignore, sink.ignoredByPattern).filter { $0.1 == 0 }.map(\.0)
        return result
    }

    static func side(_ input: ResponseInput) -> DiffSide {
        DiffSide(name: input.name, input: input.input, readError: nil)
    }

    /// Members of two objects, matched by name (the last copy of a repeated name, as JSON readers take it), in
    /// A's order, then B's members A lacks.
    static func compareObjects(
        _ a: JSONDocument, _ nodeA: Int, _ b: JSONDocument, _ nodeB: Int, path: DiffPath,
        skipping: Set<String>, into sink: inout ChangeSink
    ) {
        let membersA = members(a, nodeA)
        let membersB = members(b, nodeB)
        let namesB = Dictionary(membersB.map { ($0.name, $0.node) }, uniquingKeysWith: { _, last in last })
        let namesA = Set(membersA.map(\.name))
        var seen: Set<String> = []
        for (name, node) in membersA where !skipping.contains(name) && seen.insert(name).inserted {
            let last = membersA.last { $0.name == name }?.node ?? node
            compareValues(a, last, b, namesB[name], path: path.appending(name), into: &sink)
        }
        for (name, node) in membersB
        where !skipping.contains(name) && !namesA.contains(name)
            && seen.insert(name).inserted
        {
            compareValues(a, nil, b, namesB[name] ?? node, path: path.appending(name), into: &sink)
        }
    }

    static func compareValues(
        _ a: JSONDocument, _ nodeA: Int?, _ b: JSONDocument, _ nodeB: Int?, path: DiffPath,
        into sink: inout ChangeSink
    ) {
        let kindA = nodeA.map { a.nodes[$0].kind }
        let kindB = nodeB.map { b.nodes[$0].kind }
        let name = path.segments.last?.name
        if let nodeA, let nodeB, kindA == .object, kindB == .object {
            compareObjects(a, nodeA, b, nodeB, path: path, skipping: name == "receipt" ? requestTime : [], into: &sink)
        } else if let nodeA, let nodeB, kindA == .array, kindB == .array, name == "in_app" {
            compareInApp(a, nodeA, b, nodeB, path: path, into: &sink)
        } else {
            sink.compare(
                path, .response, nodeA.map { value(a, $0) }, nodeB.map { value(b, $0) },
                offsetA: nodeA.map { a.nodes[$0].start }, offsetB: nodeB.map { b.nodes[$0].start })
        }
    }

    /// In-app entries matched by `transaction_id` (`#N` for the Nth repeat), or by position without one.
    static func compareInApp(
        _ a: JSONDocument, _ nodeA: Int, _ b: JSONDocument, _ nodeB: Int, path: DiffPath,
        into sink: inout ChangeSink
    ) {
        let entriesA = keyedEntries(a, nodeA)
        let entriesB = keyedEntries(b, nodeB)
        let byKeyB = Dictionary(entriesB.map { ($0.key, $0.node) }, uniquingKeysWith: { first, _ in first })
        let keysA = Set(entriesA.map(\.key))
        let base = DiffPath(Array(path.segments.dropLast()))
        for (key, node) in entriesA {
            let entryPath = base.appending("in_app", selector: key)
            guard let other = byKeyB[key] else {
                sink.compare(entryPath, .response, value(a, node), nil, offsetA: a.nodes[node].start, offsetB: nil)
                continue
            }
            compareObjects(a, node, b, other, path: entryPath, skipping: [], into: &sink)
        }
        for (key, node) in entriesB where !keysA.contains(key) {
            sink.compare(
                base.appending("in_app", selector: key), .response, nil, value(b, node), offsetA: nil,
                offsetB: b.nodes[node].start)
        }
    }

    /// Each entry of an `in_app` array with its selector: `transaction_id=…`, `#N` after a repeat, or `index=N`.
    static func keyedEntries(_ document: JSONDocument, _ array: Int) -> [(key: String, node: Int)] {
        var counts: [String: Int] = [:]
        return document.children(of: array).enumerated().map { position, node in
            guard document.nodes[node].kind == .object,
                let id = document.member("transaction_id", of: node).flatMap({
                    document.string($0) ?? document.text($0)
                })
            else { return ("index=\(position)", node) }
            let base = "transaction_id=\(id)"
            let seen = counts[base, default: 0]
            counts[base] = seen + 1
            return (seen == 0 ? base : "\(base)#\(seen)", node)
        }
    }

    static func members(_ document: JSONDocument, _ node: Int) -> [(name: String, node: Int)] {
        document.children(of: node).compactMap { child in document.key(child).map { ($0, child) } }
    }

    /// A value as the diff shows it: strings as text, numbers as written, literals as words, containers as fields.
    static func value(_ document: JSONDocument, _ node: Int) -> DiffValue {
        switch document.nodes[node].kind {
        case .string: return .text(document.string(node) ?? "")
        case .number: return .word(document.text(node))
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .null: return .null
        case .object:
            return .fields(members(document, node).map { DiffField(name: $0.name, value: value(document, $0.node)) })
        case .array:
            return .list(document.children(of: node).map { value(document, $0) })
        }
    }
}

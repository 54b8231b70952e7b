import ReceiptJSON

/// A value of a JSON document written again as JSON: objects, arrays, strings (unescaped and escaped again),
/// numbers exactly as written, so `.payload.object.bundleId` reaches a claim without `fromjson`. A name given twice
/// in one object is written once, with the value rcpt's reader takes (the findings name the duplicate).
enum JSONValueWriter {
    static func write(_ document: JSONDocument, _ node: Int, to json: inout JSONWriter) {
        // Depth is bounded by the reader's own nesting limit; the walk is recursive only over that bound.
        switch document.nodes[node].kind {
        case .object:
            // One pass: each name's last member (the one rcpt's reader takes), in the order names first appear.
            var last: [String: Int] = [:]
            var order: [String] = []
            for child in document.children(of: node) {
                guard let name = document.key(child) else { continue }
                if last.updateValue(child, forKey: name) == nil { order.append(name) }
            }
            json.object { json in
                for name in order {
                    guard let value = last[name] else { continue }
                    json.key(named: name)
                    write(document, value, to: &json)
                }
            }
        case .array:
            json.array { json in
                for child in document.children(of: node) { write(document, child, to: &json) }
            }
        case .string: json.string(document.string(node) ?? "")
        case .number: json.number(text: document.text(node))
        case .true: json.bool(true)
        case .false: json.bool(false)
        case .null: json.null()
        }
    }
}

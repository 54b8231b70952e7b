import ReceiptModel

/// Full decode with rcpt: read the container and payload, then every attribute and every record's attributes,
/// every value decoded (strings, integers, dates).
enum RcptEngine {
    static func decode(_ bytes: [UInt8]) -> DecodeTally {
        var tally = DecodeTally()
        let receipt = Receipt.read(bytes)
        guard let payload = receipt.payload else { return tally }
        for attribute in payload.attributes {
            tally.attributes += 1
            count(attribute, into: &tally)
            if let record = attribute.record {
                tally.records += 1
                for inner in record.attributes {
                    tally.attributes += 1
                    count(inner, into: &tally)
                }
            }
        }
        return tally
    }

    static func count(_ attribute: ReceiptAttribute, into tally: inout DecodeTally) {
        switch attribute.value {
        case .text(let text): tally.text(text)
        case .date(let text, let parsed):
            tally.text(text)
            if parsed != nil { tally.dates += 1 }
        case .integer(let value): tally.integer(value)
        case .boolean(let flag): tally.integer(flag ? 1 : 0)
        case .largeInteger, .raw, .record, .absent: break
        }
    }
}

import ReceiptModel

/// Full decode with rcpt: read the container and payload in rcpt's single reading pass, which decodes every
/// attribute and every record's attributes (strings checked in place, integers and dates parsed) into the payload
/// index, then read every fact back from the index. Text stays in the input: its byte count is tallied without
/// building a String, which is how rcpt's own consumers (the JSON dump) read it.
enum RcptEngine {
    static func decode(_ bytes: [UInt8]) -> DecodeTally {
        var tally = DecodeTally()
        guard let payload = Receipt.read(bytes).payload else { return tally }
        func count(_ attribute: Attribute) {
            tally.attributes += 1
            switch attribute.kind {
            case .text: tally.textBytes += attribute.contentBytes.count
            case .date:
                tally.textBytes += attribute.contentBytes.count
                if attribute.date != nil { tally.dates += 1 }
            case .integer: tally.integer(attribute.integer ?? 0)
            case .boolean: tally.integer(attribute.boolean == true ? 1 : 0)
            case .record: tally.records += 1
            case .largeInteger, .raw, .absent: break
            }
        }
        for attribute in payload.attributes {
            if let record = attribute.record {
                for inner in record.attributes { count(inner) }
            }
            count(attribute)
        }
        return tally
    }
}

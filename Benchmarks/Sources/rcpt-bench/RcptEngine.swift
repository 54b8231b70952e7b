import ReceiptModel

/// Full decode with rcpt: read the container and payload in rcpt's single checking pass, which decodes every
/// attribute and every record's attributes (strings checked in place, integers and dates parsed) and hands each
/// to the visitor. Text stays in the buffer: its byte count is tallied without building a String, which is how
/// rcpt's own consumers (the JSON dump) read it.
enum RcptEngine {
    static func decode(_ bytes: [UInt8]) -> DecodeTally {
        var tally = DecodeTally()
        _ = Receipt.read(bytes) { attribute, _ in
            tally.attributes += 1
            switch attribute.value {
            case .text(let range): tally.textBytes += range.count
            case .date(let range, let parsed):
                tally.textBytes += range.count
                if parsed != nil { tally.dates += 1 }
            case .integer(let value): tally.integer(value)
            case .boolean(let flag): tally.integer(flag ? 1 : 0)
            case .record: tally.records += 1
            case .largeInteger, .raw, .absent: break
            }
        }
        return tally
    }
}

import ReceiptJSON

extension JSONDocument {
    /// The bytes of string node `node` when its text is base64 of one whole DER element (a receipt, or some other
    /// signed thing), bytes after it or not, else nil. Base64 of a DER SEQUENCE starts with M, and no such element is shorter than 16
    /// characters: the many short strings and the others cost one look.
    package func derString(_ node: Int) -> [UInt8]? {
        let entry = nodes[node]
        guard entry.kind == .string, entry.end - entry.start >= 18, bytes[entry.start + 1] == UInt8(ascii: "M"),
            let text = string(node), let decoded = Base64.decode(Array(text.utf8)),
            PastedText.startsWithWholeElement(decoded)
        else { return nil }
        return decoded
    }
}

import ReceiptDiagnostics
import ReceiptDiff
import ReceiptJSON
import ReceiptModel
import ReceiptValidation

/// Renders a diff as the `rcpt.diff/1` JSON document, keys in a fixed order:
/// `{ "schema", "a": {file, size, sha256, format}, "b": {…}, "equal", "changes": [ { "path", "kind", "layer",
/// "old", "new", "offsetA", "offsetB" } ], "errors": null | { "a": {layer, code, offset, message} | null, "b": … } }`.
/// Values are JSON strings, numbers, booleans, arrays or objects (an added or removed record or certificate);
/// raw bytes are lowercase hex strings; a missing value is null.
package enum DiffJSON {
    /// The newline-terminated document's bytes.
    package static func render(_ result: DiffResult, pretty: Bool = true) -> [UInt8] {
        JSONWriter.document(pretty: pretty) { write(result, to: &$0) }
    }

    /// Writes the newline-terminated document to `sink` in chunks.
    package static func stream(
        _ result: DiffResult, pretty: Bool = true, to sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        JSONWriter.streamDocument(pretty: pretty, to: sink) { write(result, to: &$0) }
    }

    /// Writes the document as one JSON value.
    package static func write(_ result: DiffResult, to json: inout JSONWriter) {
        json.object { json in
            json.member("schema", ReceiptDiff.schema)
            writeSide("a", result.a, to: &json)
            writeSide("b", result.b, to: &json)
            json.member("equal", result.isEqual)
            json.array("changes") { json in
                for change in result.changes { writeChange(change, to: &json) }
            }
            json.key("errors")
            if result.a.readError == nil && result.b.readError == nil {
                json.null()
            } else {
                json.object { json in
                    writeError("a", result.a.readError, to: &json)
                    writeError("b", result.b.readError, to: &json)
                }
            }
        }
    }

    /// `a` or `b`: the input summary.
    static func writeSide(_ key: String, _ side: DiffSide, to json: inout JSONWriter) {
        json.key(named: key)
        json.object { json in
            json.member("file", side.name)
            json.member("size", side.input.size)
            json.member("sha256", side.input.sha256)
            json.member("format", side.input.format)
        }
    }

    /// One change, keys in the schema's order.
    static func writeChange(_ change: Change, to json: inout JSONWriter) {
        json.object { json in
            json.member("path", change.path.description)
            json.member("kind", change.kind.rawValue)
            json.member("layer", change.layer.rawValue)
            json.key("old")
            writeValue(change.old, to: &json)
            json.key("new")
            writeValue(change.new, to: &json)
            json.member("offsetA", change.offsetA)
            json.member("offsetB", change.offsetB)
        }
    }

    /// A value as JSON; nil (the side without the item) is null.
    static func writeValue(_ value: DiffValue?, to json: inout JSONWriter) {
        guard let value else {
            json.null()
            return
        }
        switch value {
        case .text(let text), .word(let text), .epochMilliseconds(let text): json.string(text)
        case .number(let number): json.number(number)
        case .bool(let flag): json.bool(flag)
        case .bytes(let bytes): json.hexString(bytes)
        case .list(let items):
            json.array { json in
                for item in items { writeValue(item, to: &json) }
            }
        case .fields(let fields):
            json.object { json in
                for field in fields {
                    json.key(named: field.name)
                    writeValue(field.value, to: &json)
                }
            }
        case .null: json.null()
        }
    }

    /// Where one side's reading stopped, or null.
    static func writeError(_ key: String, _ error: CodedError?, to json: inout JSONWriter) {
        json.key(named: key)
        DumpJSON.writeReadErrorValue(error, to: &json)
    }
}

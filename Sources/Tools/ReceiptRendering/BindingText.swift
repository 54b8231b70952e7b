import ReceiptJSON
import ReceiptValidation

/// How every `verify` output says what a verdict was bound to (`BindingScope`): a line under the verdict in text, a
/// note on a valid batch line that is bound to no app, and `binding` in `rcpt.verify/1` JSON.
package enum BindingText {
    /// The line under a text verdict: dim when bound, yellow when not.
    package static func line(_ scope: BindingScope?, document: String, style: TextStyle) -> String {
        guard let scope else { return "" }
        let sentence = scope.sentence(document: document)
        return (scope.isBound ? style.dim(sentence) : style.yellow(sentence)) + "\n"
    }

    /// What a valid batch line adds when the verdict is bound to no app.
    package static func batchNote(_ scope: BindingScope?, valid: Bool) -> String {
        guard valid, let scope, !scope.isBound else { return "" }
        guard !scope.missingOptions.isEmpty else { return " (not bound to an app: it carries no app's identity)" }
        return " (not bound to an app: pass \(scope.missingOptions.joined(separator: " and ")))"
    }

    /// `"binding": {"bound", "checked", "unchecked", "notCarried", "missing"}`, or null when the document was not read.
    package static func write(_ scope: BindingScope?, to json: inout JSONWriter) {
        json.key("binding")
        guard let scope else { return json.null() }
        json.object { json in
            json.member("bound", scope.isBound)
            json.key("checked")
            json.array { json in for part in scope.checked { json.string(part.rawValue) } }
            json.key("unchecked")
            json.array { json in for part in scope.unchecked { json.string(part.rawValue) } }
            json.key("notCarried")
            json.array { json in for part in scope.notCarried { json.string(part.rawValue) } }
            json.key("missing")
            json.array { json in for option in scope.missingOptions { json.string(option) } }
        }
    }
}

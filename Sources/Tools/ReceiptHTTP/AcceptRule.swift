import Foundation
import ReceiptJSON

/// `--accept-when PATH=VALUE`: for an endpoint that answers 200 whatever it decides, with its verdict in the body
/// (verifyReceipt's `status=0`, an API's `valid=true`): a 2xx answer is "accepted" only when the JSON body's member at
/// `PATH` (dotted names, `[N]` for an array's element, an optional leading `$.`) has `VALUE` (a string's text, a
/// number, `true`, `false` or `null` as written).
package struct AcceptRule: Sendable, Hashable {
    package var path: [Step]
    package var value: String

    package enum Step: Sendable, Hashable {
        case member(String)
        case element(Int)
    }

    /// The rule `PATH=VALUE`, or nil when it is not one.
    package init?(_ text: String) {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        var pathText = String(text[..<equals])
        if pathText.hasPrefix("$.") { pathText.removeFirst(2) }
        var steps: [Step] = []
        for part in pathText.split(separator: ".", omittingEmptySubsequences: false) {
            var name = Substring(part)
            var indexes: [Int] = []
            while name.hasSuffix("]"), let open = name.lastIndex(of: "[") {
                guard let index = Int(name[name.index(after: open)..<name.index(before: name.endIndex)]), index >= 0
                else { return nil }
                indexes.insert(index, at: 0)
                name = name[..<open]
            }
            guard !name.isEmpty || !indexes.isEmpty else { return nil }
            if !name.isEmpty { steps.append(.member(String(name))) }
            steps += indexes.map(Step.element)
        }
        guard !steps.isEmpty else { return nil }
        path = steps
        value = String(text[text.index(after: equals)...])
    }

    /// Whether `body` is JSON whose value at the path has the rule's value (read by rcpt's own bounded JSON reader:
    /// the answer is the endpoint's, any bytes).
    package func matches(_ body: Data) -> Bool {
        guard let document = try? JSONDocument.read(Array(body)), !document.nodes.isEmpty else { return false }
        var node = document.root
        for step in path {
            switch step {
            case .member(let name):
                guard document.nodes[node].kind == .object, let next = document.member(name, of: node) else {
                    return false
                }
                node = next
            case .element(let index):
                let elements = document.nodes[node].kind == .array ? document.children(of: node) : []
                guard index < elements.count else { return false }
                node = elements[index]
            }
        }
        if let string = document.string(node) { return string == value }
        let text = document.text(node)
        // A number matches the same number however it is written (0, 0.0, 0e0).
        if document.nodes[node].kind == .number, let answered = Double(text), let wanted = Double(value) {
            return answered == wanted
        }
        return text == value
    }
}

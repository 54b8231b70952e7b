import ReceiptDiagnostics

/// Where a change is: a stable, dotted path such as `in_app[transaction_id=1000000156449405].expires_date`,
/// `attributes[type=2#0].value` or `certificates[sha256=…].notAfter`.
package struct DiffPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path: a name with an optional selector in brackets.
    package struct Segment: Sendable, Hashable {
        /// The name before the brackets: `in_app`, `attributes`, `expires_date`.
        package var name: String
        /// What is between the brackets, already escaped: `type=2#0`, `transaction_id=1000000156449405`, `#1`.
        package var selector: String?
        /// Another name the segment answers to in `--ignore` patterns: the field name of `attributes[type=12#0]`
        /// is `receipt_creation_date`.
        package var alias: String?

        package init(_ name: String, selector: String? = nil, alias: String? = nil) {
            self.name = name
            self.selector = selector
            self.alias = alias
        }

        /// The segment as a path shows it: a name that is not only letters, digits, `_` and `-` in double quotes
        /// (`"a.b"`), so a name holding a dot or a bracket stays one segment, and `--ignore` can name it.
        package var description: String {
            let shown = DiffPath.isPlainName(name) ? name : TerminalText.quoted(name)
            return selector.map { "\(shown)[\($0)]" } ?? shown
        }
    }

    package var segments: [Segment]

    package init(_ segments: [Segment]) {
        self.segments = segments
    }

    /// A one-segment path.
    package init(_ name: String, selector: String? = nil, alias: String? = nil) {
        self.segments = [Segment(name, selector: selector, alias: alias)]
    }

    /// This path with one more segment.
    package func appending(_ name: String, selector: String? = nil, alias: String? = nil) -> DiffPath {
        DiffPath(segments + [Segment(name, selector: selector, alias: alias)])
    }

    package var description: String { segments.map(\.description).joined(separator: ".") }

    /// Whether a name stands bare in a path: letters, digits, `_` and `-` only.
    package static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
                    || $0 == "-"
            }
    }

    /// A selector value as it may stand in a path: bare when it holds only letters, digits and `._:+-/@`,
    /// otherwise in double quotes with `"`, `\` and control characters escaped, so any value round-trips and no
    /// value can break out of its brackets.
    package static func selectorValue(_ raw: String) -> String {
        if !raw.isEmpty, raw.unicodeScalars.allSatisfy(isBare) { return raw }
        return TerminalText.quoted(raw)
    }

    private static func isBare(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "_", ":", "+", "-", "/", "@": return true
        default: return false
        }
    }
}

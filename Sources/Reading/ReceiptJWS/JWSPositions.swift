import ReceiptASN1
import ReceiptDiagnostics
import ReceiptJSON

/// A string in JSON where a token stands, or should: the value of one of Apple's `signed…` members or an element
/// of its array, or any string a lenient consumer would take for a token (`JWSText.looksLikeToken`). Every one is
/// read and judged; none is skipped because it is not exactly a compact JWS.
package struct JWSPosition: Sendable, Hashable {
    /// Where a token stands, or hides.
    package enum Place: Sendable, Hashable {
        /// The string is the token (once stripped).
        case value
        /// The string is JSON that holds a token: a reader that parses JSON inside JSON takes an unverified token.
        case jsonInString
        /// The member's name is a token: a reader that walks names takes an unverified token.
        case memberName
    }

    /// The string node in the JSON document (for a name, the node the name introduces).
    package var node: Int
    /// The member that holds it (for an array element, the array's member).
    package var member: String?
    package var place: Place = .value
}

/// A token position whose text is not a compact JWS: where it is, and the error it would get as a whole file.
package struct UnreadableJWS: Sendable {
    package var path: String
    /// The offset of the string's first character (after its quote) in the JSON that holds it.
    package var offset: Int
    package var error: JWSReadError
}

/// What one token position holds.
package enum JWSPositionContent: Sendable {
    /// A token, and what was stripped around it (quotes, white space, a Bearer prefix …; empty when bare).
    case token(NestedJWS, stripped: [String], surrounded: Bool)
    case unreadable(UnreadableJWS)
}

package enum JWSPositions {
    /// The token positions of `document`, in document order, found in one pass without recursion: strings that
    /// are tokens, and the places a token hides from a reader of strings (JSON inside a string, a member's name).
    package static func find(in document: JSONDocument) -> [JWSPosition] {
        var positions: [JWSPosition] = []
        func hidesToken(_ body: ArraySlice<UInt8>) -> Bool {
            body.contains(UInt8(ascii: "."))
                && (TextCheck.contains(body, "eyJ") || TextCheck.contains(body, "signed")
                    || TextCheck.contains(body, "Signed"))
        }
        // Open containers: (node, whether it is an array held by a token member, that member).
        var stack: [(node: Int, member: String?)] = []
        for index in document.nodes.indices {
            while let top = stack.last, index >= document.nodes[top.node].next { stack.removeLast() }
            let entry = document.nodes[index]
            // The key's bytes as written; its String only where a position is recorded.
            let written = entry.keyRange.map { document.bytes[$0] }
            if let written, written.contains(UInt8(ascii: ".")), let key = document.key(index),
                JWSText.looksLikeToken(Array(key.utf8))
            {
                positions.append(JWSPosition(node: index, member: key, place: .memberName))
            }
            let keyIsTokenMember =
                written.map { JWSText.isTokenMember(written: $0, unescaped: { document.key(index) }) } ?? false
            if entry.kind == .array || entry.kind == .object {
                // An array in a token member's array holds what it holds (`signedTransactions: [[token]]`, which a
                // reader that flattens takes as transactions).
                let inherited = written == nil ? stack.last?.member : nil
                let holder = entry.kind == .array ? (keyIsTokenMember ? document.key(index) : inherited) : nil
                stack.append((index, holder))
                continue
            }
            guard entry.kind == .string else { continue }
            // The member that holds the string: its key, or the token member whose array holds it.
            let heldByArray =
                written == nil ? stack.last.flatMap { document.nodes[$0.node].kind == .array ? $0 : nil } : nil
            if keyIsTokenMember || heldByArray?.member != nil {
                positions.append(JWSPosition(node: index, member: heldByArray?.member ?? document.key(index)))
                continue
            }
            func member() -> String? { written == nil ? nil : document.key(index) }
            // A cheap test first: a token needs a dot (or an escape that could spell one).
            let body = document.bytes[entry.start + 1..<entry.end - 1]
            if let first = body.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }),
                first == UInt8(ascii: "{") || first == UInt8(ascii: "["), hidesToken(body)
            {
                positions.append(JWSPosition(node: index, member: member(), place: .jsonInString))
                continue
            }
            guard body.contains(UInt8(ascii: ".")) || body.contains(UInt8(ascii: "\\")),
                let value = document.string(index), JWSText.looksLikeToken(Array(value.utf8))
            else { continue }
            positions.append(JWSPosition(node: index, member: member()))
        }
        return positions
    }

    /// Reads each position of `document` at `depth`: the token the text holds once stripped, or why it holds none.
    /// Positions whose text is empty once stripped hold nothing a consumer could read, and are left out.
    package static func read(_ positions: [JWSPosition], in document: JSONDocument, depth: Int) -> [JWSPositionContent]
    {
        guard !positions.isEmpty else { return [] }
        let paths = document.paths()
        var contents: [JWSPositionContent] = []
        for position in positions {
            let entry = document.nodes[position.node]
            switch position.place {
            case .value: break
            case .jsonInString:
                contents.append(
                    .unreadable(
                        UnreadableJWS(
                            path: paths[position.node], offset: entry.start + 1,
                            error: JWSReadError(
                                .jwsTokenInJSONString,
                                "the string is JSON holding a token: rcpt reads no JSON inside a string, and a reader that does takes a token nobody verified"
                            ))))
                continue
            case .memberName:
                let offset = (entry.keyRange?.lowerBound ?? entry.start + 1)
                contents.append(
                    .unreadable(
                        UnreadableJWS(
                            path: paths[position.node], offset: offset,
                            error: JWSReadError(
                                .jwsTokenAsName,
                                "a member's name is a token: a reader that walks names takes a token nobody verified")))
                )
                continue
            }
            let value = Array((document.string(position.node) ?? "").utf8)
            let located = JWSText.locate(value[...])
            guard !located.range.isEmpty else { continue }
            let path = paths[position.node]
            switch JWSReader.read(value[located.range], depth: depth) {
            case .success(let token):
                let held = NestedJWS(path: path, member: position.member, offset: entry.start + 1, token: token)
                contents.append(
                    .token(
                        held, stripped: located.repairs,
                        surrounded: located.range.count != value.count))
            case .failure(let error):
                contents.append(.unreadable(UnreadableJWS(path: path, offset: entry.start + 1, error: error)))
            }
        }
        return contents
    }

}

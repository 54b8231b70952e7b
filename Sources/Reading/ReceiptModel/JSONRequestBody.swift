import ReceiptDiagnostics
import ReceiptJSON

/// The members of interest of a JSON body (a verifyReceipt request or response, a notification), read with the one
/// JSON reader (`JSONDocument`: bounded, non-recursive, strict): every member with one of the wanted names is found
/// (names compared after unescaping, as a JSON reader would), at the top level or nested, so a body that strict
/// readers would read differently is refused.
struct JSONRequestBody {
    /// A wanted member: where its name starts, and its string value (unescaped) if the value is a string.
    struct Member {
        var offset: Int
        var value: [UInt8]?
    }

    /// Wanted members of the top-level object, by name, in order.
    private var topLevelMembers: [String: [Member]] = [:]
    /// The offset of the first wanted member inside a nested object, by name.
    private var nestedOffsets: [String: Int] = [:]
    /// Every string of the body, at any depth, whose text is base64 of one whole DER element (a receipt, or some
    /// other signed thing): where it starts, and the bytes.
    private(set) var derStrings: [(offset: Int, bytes: [UInt8])] = []
    /// What a verifyReceipt response's `receipt` object names of the app, when the body has one.
    private(set) var responseDecoding: VerifyReceiptDecoding?

    /// The top-level members named `key`, in order.
    func topLevel(_ key: String) -> [Member] { topLevelMembers[key] ?? [] }

    /// Where the first member named `key` inside a nested object or array is, if there is one.
    func firstNested(_ key: String) -> Int? { nestedOffsets[key] }

    /// Reads `input`; fails with an offset on malformed JSON, nesting past `JSONLimits`'s depth, or a body that is not
    /// an object.
    static func scan(_ input: [UInt8], keys: Set<String>) -> Result<JSONRequestBody, InputError> {
        let document: JSONDocument
        do {
            // The limits every JSON reader of rcpt has: a body the classifier could not read as JSON (nested past
            // its depth, a red team's trial) is no body here either, or its members would go unseen there.
            document = try JSONDocument.read(input)
        } catch {
            // Past a limit, the body is not malformed but unread: its own code, which the classifier never digs
            // past for a document inside (a reviewer's trial: a response nested 130 deep before its latest_receipt
            // was read for the bare receipt, its status 21003 unseen).
            let limit = JSONLimits.exceeded.contains(error.kind)
            return .failure(
                InputError(
                    limit ? error.kind : .jsonMalformed,
                    "the JSON body is \(limit ? "beyond rcpt's limits" : "malformed") at offset \(error.offset): \(error.message)",
                    at: error.offset))
        }
        // An array is no request body, but the members inside it are read as nested ones: `[{"receipt-data": …}]`
        // is refused as `{"request": {"receipt-data": …}}` is.
        guard document.nodes.first?.kind == .object || document.nodes.first?.kind == .array else {
            return .failure(InputError(.jsonMalformed, "the JSON body is not an object"))
        }
        var body = JSONRequestBody()
        body.responseDecoding = VerifyReceiptDecoding(document)
        // Names are matched without regard to case, as Go's and .NET's readers match them.
        let wanted = Dictionary(keys.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        for (node, entry) in document.nodes.enumerated() where entry.depth >= 1 {
            if let bytes = document.derString(node) { body.derStrings.append((entry.start, bytes)) }
            guard let keyRange = entry.keyRange, let key = document.key(node), let name = wanted[key.lowercased()]
            else { continue }
            let offset = keyRange.lowerBound - 1
            if entry.depth == 1 {
                let value = document.string(node).map { Array($0.utf8) }
                body.topLevelMembers[name, default: []].append(Member(offset: offset, value: value))
            } else if body.nestedOffsets[name] == nil {
                body.nestedOffsets[name] = offset
            }
        }
        return .success(body)
    }
}

import ReceiptDiagnostics

/// Why a JSON read stopped, with the absolute byte offset of the byte that stopped it.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why, from the one `ErrorCode` table (layer `json`).
    public var kind: ErrorCode
    /// The stable kebab-case code (`kind`'s raw value).
    public var code: String { kind.rawValue }
    /// Absolute byte offset in the JSON text.
    public var offset: Int
    private let makeMessage: @Sendable () -> String

    package init(_ kind: ErrorCode, at offset: Int, _ message: @escaping @Sendable @autoclosure () -> String) {
        self.kind = kind
        self.offset = offset
        self.makeMessage = message
    }

    /// What went wrong, in a sentence (built when read).
    public var message: String { makeMessage() }

    public var description: String { "\(message) (\(code) at offset \(offset))" }

    public static func == (lhs: JSONError, rhs: JSONError) -> Bool {
        lhs.kind == rhs.kind && lhs.offset == rhs.offset && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(offset)
    }
}

/// How much a JSON read may take on: named bounds, so a hostile document costs at most this much.
public struct JSONLimits: Sendable, Hashable {
    /// The deepest nesting of objects and arrays.
    package var maximumDepth: Int
    /// The most values (objects, arrays, strings, numbers, literals) in one document.
    package var maximumNodes: Int
    /// The largest document, in bytes.
    package var maximumSize: Int

    /// The errors of a document past one of the limits (not a malformed one).
    package static let exceeded: Set<ErrorCode> = [.jsonDepthLimit, .jsonNodeLimit, .jsonTooLarge]

    public init(maximumDepth: Int = 128, maximumNodes: Int = 4_000_000, maximumSize: Int = 256 << 20) {
        self.maximumDepth = maximumDepth
        self.maximumNodes = maximumNodes
        self.maximumSize = maximumSize
    }
}

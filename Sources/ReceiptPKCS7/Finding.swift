/// How much a finding matters: an error makes a receipt invalid; a warning is suspicious; info is a fact.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    case info
    case warning
    case error

    private var rank: Int {
        switch self {
        case .info: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// Something noteworthy about a receipt: a stable kebab-case code, where it is, and what it means.
/// "This receipt is bad" is a finding, never an exception.
public struct Finding: Sendable, Hashable {
    public var severity: Severity
    public var code: String
    /// Absolute byte offset in the input, when the finding has a place.
    public var offset: Int?
    public var message: String

    public init(_ severity: Severity, _ code: String, at offset: Int?, _ message: String) {
        self.severity = severity
        self.code = code
        self.offset = offset
        self.message = message
    }
}

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

/// Something noteworthy about a receipt: a kind from the `FindingCode` table, where it is, and what it means.
/// "This receipt is bad" is a finding, never an exception.
///
/// The message is built only when it is read: a finding keeps the few values its message needs (captured by the
/// autoclosure at its site), so a reading pass over damaged input formats no text that nobody shows.
public struct Finding: Sendable, Hashable {
    /// What kind of finding this is.
    public var kind: FindingCode
    public var severity: Severity
    /// Absolute byte offset in the input, when the finding has a place.
    public var offset: Int?
    /// Facts a machine reads without parsing the message (`product_id`, `expires_date` …), in order.
    public var fields: [FindingField]
    private let makeMessage: @Sendable () -> FindingMessage

    /// A finding of `kind`, with its default severity unless `severity` is given. `message` is evaluated each time
    /// the message is read, never before.
    package init(
        _ kind: FindingCode, severity: Severity? = nil, at offset: Int?,
        _ message: @escaping @Sendable @autoclosure () -> FindingMessage, fields: [FindingField] = []
    ) {
        self.kind = kind
        self.severity = severity ?? kind.severity
        self.offset = offset
        self.makeMessage = message
        self.fields = fields
    }

    /// What the finding means here, in a sentence (built now).
    public var message: String { makeMessage().text }

    /// The stable kebab-case code, e.g. "chain-invalid".
    public var code: String { kind.rawValue }

    public static func == (lhs: Finding, rhs: Finding) -> Bool {
        lhs.kind == rhs.kind && lhs.severity == rhs.severity && lhs.offset == rhs.offset && lhs.fields == rhs.fields
            && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(severity)
        hasher.combine(offset)
        hasher.combine(fields)
    }
}

/// One named fact of a finding, as text (JSON shows it under `fields`).
public struct FindingField: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension Finding {
    /// The field that marks a finding Apple's guidance makes ignorable — a malformed value of a receipt attribute
    /// type Apple does not document (Apple tells validators to ignore those), a JWS claim that is `null` (Apple's
    /// libraries read it as absent) — with what makes it so: a warning by default, an error under the strict
    /// judgement (`--strict`).
    package static let ignorableField = "ignorable"

    /// Whether the finding is marked ignorable.
    package var isIgnorable: Bool { fields.contains { $0.name == Self.ignorableField } }
}

extension Array where Element == Finding {
    /// The findings under the strict judgement when `strict`: every ignorable one an error again.
    package func judged(strict: Bool) -> [Finding] {
        guard strict else { return self }
        return map { finding in
            guard finding.isIgnorable else { return finding }
            var strictly = finding
            strictly.severity = .error
            return strictly
        }
    }
}

/// Why a mutation could not be applied to an input.
public struct MutationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: String
    public var message: String

    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) (\(code))" }
}

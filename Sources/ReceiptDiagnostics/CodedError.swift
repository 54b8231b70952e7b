/// Why something could not be done, said once for people (`message`) and once for machines (a stable kebab-case
/// `code`). The one shape of the tool's non-finding errors: an input that holds no receipt (`InputError`), a
/// mutation that cannot be applied (`MutationError`), a suite that cannot be read or run (`SuiteError`).
public struct CodedError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: String
    public var message: String

    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) (\(code))" }
}

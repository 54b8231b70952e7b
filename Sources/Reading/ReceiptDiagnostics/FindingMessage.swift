/// A finding's message as its site writes it: a string interpolation whose storage is reserved for the whole
/// sentence up front. A message is built when it is read (`Finding.message`), and a damaged input has many; the
/// default interpolation starts from the literal text's size and grows once or twice for the values put in it, each
/// growth an allocation and a copy, where this one allocates once.
package struct FindingMessage: ExpressibleByStringInterpolation, Sendable {
    /// The sentence.
    package let text: String

    /// A message made elsewhere, taken as it is.
    package init(_ text: String) { self.text = text }

    package init(stringLiteral value: String) { text = value }

    package init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }

    package struct StringInterpolation: StringInterpolationProtocol {
        var text: String

        /// Reserves the literal text and a typical value (an offset, a field name, a tag name) per interpolation.
        package init(literalCapacity: Int, interpolationCount: Int) {
            text = String()
            text.reserveCapacity(literalCapacity &+ interpolationCount &* 32)
        }

        package mutating func appendLiteral(_ literal: String) { text.append(literal) }

        /// Strings, and values that write themselves (a finding's place): straight into the storage.
        package mutating func appendInterpolation<Value: TextOutputStreamable & CustomStringConvertible>(_ value: Value)
        {
            value.write(to: &text)
        }

        package mutating func appendInterpolation<Value: CustomStringConvertible>(_ value: Value) {
            text.append(value.description)
        }

        /// Anything else as `String(describing:)` writes it, as the default interpolation does.
        package mutating func appendInterpolation<Value>(_ value: Value) { text.append(String(describing: value)) }
    }
}

/// rcpt's version: what `rcpt --version` prints and what it names itself in an HTTP request's User-Agent.
package enum ToolVersion {
    package static let text = "0.1.0"
    package static let userAgent = "rcpt/\(text)"
}

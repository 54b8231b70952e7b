/// What judges one input file for `conformance`, besides a command run on each file and a `--batch` process: an
/// HTTP endpoint (`ReceiptHTTP.HTTPTarget`), a backend's purchase API or notification webhook.
package protocol DocumentValidator: Sendable {
    /// The verdict on the file at `path`.
    func run(_ path: String) -> ValidatorRun
    /// What a person runs to get this verdict again (for an endpoint: the curl command posting the same body).
    func reproduction(of path: String) -> String
    /// What the report names as the validator (the command, the URL).
    var name: String { get }
}

import ArgumentParser

/// An option that counts seconds (`--timeout`, `--time`): a positive, finite number no larger than a bound, checked
/// where the options are validated. A larger one (`1e12`, `inf`) would overflow the clock arithmetic it feeds.
enum SecondsOption {
    /// One day: the longest a single request or validator run may be given.
    static let timeoutLimit: Double = 86_400
    /// A year: the longest a campaign may be given.
    static let durationLimit: Double = 366 * 86_400

    /// Throws a usage error naming `option` unless `seconds` is positive, finite and at most `limit`.
    static func check(_ seconds: Double?, _ option: String, atMost limit: Double = timeoutLimit) throws {
        guard let seconds else { return }
        guard seconds > 0, seconds.isFinite, seconds <= limit else {
            throw ValidationError(
                "\(option) must be positive, finite and at most \(Int(limit)) seconds (\(Int(limit / 86_400)) day\(limit > 86_400 ? "s" : "")), not \(seconds)"
            )
        }
    }
}

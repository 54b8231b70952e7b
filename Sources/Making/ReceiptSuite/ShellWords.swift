import Foundation

/// Paths and words for the /bin/sh lines a suite suggests and runs.
package enum ShellWords {
    /// `path` made absolute against the current directory (unchanged when it already is).
    package static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// `text` as one /bin/sh word: unchanged when it is plain, else in single quotes with each ' written as '\''.
    package static func quoted(_ text: String) -> String {
        let safe = text.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:@".contains($0) }
        return safe ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

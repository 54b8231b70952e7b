import ArgumentParser
import Foundation
import ReceiptBatch
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptJWS
import ReceiptModel
import ReceiptRendering
import ReceiptValidation
import ReceiptVerifyReceipt

/// Reading input files.
enum InputFiles {
    /// A directory argument without its trailing slashes (`suite/` → `suite`, `/` stays): paths joined to it, in
    /// reports and SARIF URIs, read `suite/x`, never `suite//x`.
    static func directoryPath(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// The files to read: the given ones, or standard input ("-") when none is given and it is not a terminal,
    /// as openssl and jq do.
    static func orStandardInput(_ files: [String]) throws -> [String] {
        if !files.isEmpty { return files }
        guard isatty(STDIN_FILENO) == 0 else {
            throw ValidationError("give a receipt file (or - for standard input), or pipe one in")
        }
        return ["-"]
    }

    /// Whether `path` names a directory.
    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    /// Why a file could not be written at `path`, for the message: it is a directory, its folder does not exist,
    /// or the folder is not writable (a CI trial: "cannot write seeds/baseline.receipt" with no reason).
    static func whyUnwritable(_ path: String) -> String {
        if isDirectory(path) { return "it is a directory" }
        let folder = (path as NSString).deletingLastPathComponent
        let shown = folder.isEmpty ? "." : folder
        if !folder.isEmpty, !isDirectory(folder) { return "its folder \(TerminalText.safe(shown)) does not exist" }
        if !FileManager.default.isWritableFile(atPath: shown) {
            return "its folder \(TerminalText.safe(shown)) is not writable"
        }
        return "the file could not be created"
    }

    /// Whether `files` are more than one input: several paths, or a directory.
    static func areSeveral(_ files: [String]) -> Bool { files.count > 1 || files.contains(where: isDirectory) }

    /// Says on standard error what a directory scan left out, and why (names made terminal-safe).
    static func report(_ skipped: [BatchInspection.Skipped]) {
        for entry in skipped { Console.error("skipped \(TerminalText.safe(entry.path)): \(entry.reason)") }
    }

    /// The documents `arguments` name (files as given, directories expanded), with what the scan skipped said on
    /// standard error. Arguments that hold none — an empty directory, one of files that are all something else, a
    /// misspelt path in CI — are a usage error (exit 2), the same for every command: a gate that judged nothing
    /// must not pass.
    static func documents(in arguments: [String], recursive: Bool) throws -> (
        paths: [String], skipped: [BatchInspection.Skipped]
    ) {
        let expanded = BatchInspection.expand(arguments, recursive: recursive)
        report(expanded.skipped)
        guard !expanded.paths.isEmpty else {
            throw CommandFailure.usage(
                "no document found in \(arguments.map { TerminalText.safe($0) }.joined(separator: ", "))"
                    + (expanded.skipped.isEmpty ? "" : " (\(expanded.skipped.count) skipped, said above)")
                    + (recursive ? "" : "; documents in subdirectories need --recursive"))
        }
        return expanded
    }

    /// The bytes of `file`, or of standard input for `-`.
    static func read(_ file: String) throws -> [UInt8] {
        switch load(file) {
        case .success(let bytes): return bytes
        case .failure(let unreadable): throw failure(file, unreadable)
        }
    }

    /// The failure that ends a command whose input `file` cannot be read.
    static func failure(_ file: String, _ unreadable: InputFile.Unreadable) -> CommandFailure {
        .unreadable("cannot read \(file == "-" ? "standard input" : TerminalText.safe(file)): \(unreadable.reason)")
    }

    /// The bytes of `file`, or of standard input for `-`, or why they cannot be read.
    static func load(_ file: String) -> Result<[UInt8], InputFile.Unreadable> {
        file == "-" ? InputFile.load(descriptor: STDIN_FILENO) : InputFile.load(file)
    }

    /// The name to show for `file`.
    static func displayName(_ file: String) -> String { file == "-" ? "(stdin)" : file }
}

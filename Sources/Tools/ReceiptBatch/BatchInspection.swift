import Foundation
import ReceiptASN1
import ReceiptDiagnostics
import ReceiptInput
import ReceiptJWS
import ReceiptModel
import ReceiptValidation
import Synchronization

/// Counts of a batch run, and every input that was not valid with why.
package struct BatchSummary: Sendable, Hashable {
    /// The inputs by the kind the classifier found (an input holding nothing counts as a receipt: the receipt reader
    /// says why it is none), and the files that could not be loaded at all.
    package var kinds: [DocumentKind: Int] = [:]
    package var unloadable = 0
    /// Read completely (valid or not).
    package var read = 0
    /// Read completely and valid.
    package var valid = 0
    /// Missing, not a receipt, or malformed.
    package var unreadable = 0
    /// Each input that was invalid or unreadable, in input order, with the reason in a few words.
    package var failures: [BatchFailure] = []
}

extension BatchSummary {
    /// The inputs counted by kind, for the summary line: "3 receipts", "4 JWS", "2 receipts, 1 JWS and 1 file that
    /// could not be loaded".
    package var inputsPhrase: String {
        var parts: [String] = []
        if let count = kinds[.receipt] { parts.append("\(count) receipt\(count == 1 ? "" : "s")") }
        if let count = kinds[.jws] { parts.append("\(count) JWS") }
        if unloadable > 0 { parts.append("\(unloadable) file\(unloadable == 1 ? "" : "s") that could not be loaded") }
        guard let last = parts.popLast() else { return "0 inputs" }
        return parts.isEmpty ? last : parts.joined(separator: ", ") + " and " + last
    }
}

/// An input of a batch that was not valid, and why.
package struct BatchFailure: Sendable, Hashable {
    package var path: String
    package var reason: String
}

/// Inspects many receipts in parallel and emits one line per input (rendered by `line`, which the caller takes from
/// the renderers), in input order: the engine of `dump --format jsonl` and of `verify` over several files. It reads
/// files and schedules threads; it renders nothing itself.
package struct BatchInspection: Sendable {
    package var paths: [String]
    package var jobs: Int
    package var options: InspectionOptions
    /// The line for one input: its inspection (nil when the file could not be read) and its path.
    package var line: @Sendable (Inspection?, String) -> [UInt8]
    /// The kinds of document the batch judges; an input of another kind is unreadable (its line is still written).
    package var kinds: Set<DocumentKind>

    package init(
        paths: [String], jobs: Int, options: InspectionOptions,
        kinds: Set<DocumentKind> = Set(DocumentKind.allCases),
        line: @escaping @Sendable (Inspection?, String) -> [UInt8]
    ) {
        self.paths = paths
        self.jobs = max(1, jobs)
        self.options = options
        self.kinds = kinds
        self.line = line
    }

    /// A directory entry left out, and why.
    package struct Skipped: Sendable, Hashable {
        package var path: String
        package var reason: String
    }

    /// What a directory holds: its regular files that look like receipts or JWS (sorted; descending into
    /// subdirectories when `recursive`), and the entries skipped: content that is clearly something else, and
    /// anything not a regular file (a pipe would block the read, a device never end it). Other arguments are taken
    /// as they are. A file named twice, or named and found in a directory named too, is one document, taken once.
    package static func expand(_ arguments: [String], recursive: Bool = false) -> (paths: [String], skipped: [Skipped])
    {
        var paths: [String] = []
        var skipped: [Skipped] = []
        // Each path, whether a directory scan found it, and whether its directory said it is a regular file.
        var pending: [(String, Bool, Bool?)] = arguments.map { ($0, false, nil) }
        // Each directory is read once, by its device and inode (a directory named twice); links to directories inside
        // the tree are not followed at all.
        var visited: Set<[UInt64]> = []
        // Each file named as an argument, by device and inode: a second name for it (the same argument twice, or its
        // directory named beside it) is not another document. Entries of directories are only looked up when a
        // file was named, so a scan of a directory alone takes no stat(2) a file.
        var named: Set<[UInt64]> = []
        var index = 0
        while index < pending.count {
            let (argument, fromDirectory, listedRegular) = pending[index]
            index += 1
            // One stat(2) a path (links followed) — none for a file its directory lists as regular: what it is, and
            // a directory's identity.
            var status = stat()
            let type =
                listedRegular == true ? S_IFREG : stat(argument, &status) == 0 ? status.st_mode & S_IFMT : 0
            if type == S_IFDIR {
                // A link to a directory found in the tree is not followed (as `grep -r` does not): it leads out of
                // the tree the user named, to documents of another customer or case. One named as an argument is.
                var own = stat()
                if fromDirectory, lstat(argument, &own) == 0, own.st_mode & S_IFMT == S_IFLNK {
                    skipped.append(
                        Skipped(
                            path: argument,
                            reason: "a link to a directory, not followed (name the directory to read it)"))
                    continue
                }
                // Said, so that documents in it are not passed over in silence (a newcomer's `verify Corpus/receipts`
                // never mentioned the two broken receipts in its `malformed/`).
                guard !fromDirectory || recursive else {
                    skipped.append(Skipped(path: argument, reason: "a subdirectory, not read (--recursive reads it)"))
                    continue
                }
                guard visited.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted else { continue }
                let entries = DirectoryListing.entries(argument) ?? []
                for entry in entries.sorted(by: { $0.name < $1.name }) {
                    let path = (argument as NSString).appendingPathComponent(entry.name)
                    // A hidden entry is said, never passed over in silence (a red team's trial: a forged
                    // `.forged.receipt` beside a genuine one, and the batch said "1 read, 1 valid", exit 0).
                    guard !entry.name.hasPrefix(".") else {
                        skipped.append(
                            Skipped(path: path, reason: "hidden (its name starts with '.'): name it to read it"))
                        continue
                    }
                    pending.append((path, true, entry.isRegular))
                }
            } else if fromDirectory, type == 0, hasDocumentExtension(argument) {
                // A link named as a receipt or a JWS whose file is gone: judged (unreadable, exit 2), never passed
                // over as not a document. A pipe or a device is not read (it may never end).
                paths.append(argument)
            } else if fromDirectory, type != S_IFREG {
                skipped.append(
                    Skipped(path: argument, reason: "not a regular file (a pipe, a device, a socket or a broken link)"))
            } else if fromDirectory, !hasDocumentExtension(argument), let reason = reasonToPassOver(argument) {
                skipped.append(Skipped(path: argument, reason: reason))
            } else {
                if type == S_IFREG {
                    if fromDirectory, !named.isEmpty, listedRegular == true { _ = stat(argument, &status) }
                    let identity = [UInt64(status.st_dev), UInt64(status.st_ino)]
                    if !fromDirectory || !named.isEmpty, status.st_ino != 0 {
                        guard fromDirectory ? !named.contains(identity) : named.insert(identity).inserted else {
                            continue
                        }
                    }
                }
                paths.append(argument)
            }
        }
        return (paths, skipped)
    }

    /// Whether the file's name says it holds a receipt or a JWS (`.receipt`, `.der`, `.jws` …): such a file is
    /// judged whatever it holds, so a corrupted receipt is reported unreadable, never skipped as not a receipt.
    static func hasDocumentExtension(_ path: String) -> Bool {
        // The last component of the path, trailing slashes aside, read as UTF-8: no array of components, no
        // grapheme breaking (a directory scan asks this of every file).
        let slash = UInt8(ascii: "/")
        var name = path.utf8[...]
        while name.count > 1, name.last == slash { name = name.dropLast() }
        if let last = name.lastIndex(of: slash) { name = name[name.index(after: last)...] }
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return false }
        let suffix = name[name.index(after: dot)...]
        return documentExtensions.contains(String(Substring(suffix)).lowercased())
    }

    /// The extensions `hasDocumentExtension` knows, lowercase.
    private static let documentExtensions: Set<String> = [
        "receipt", "der", "ber", "p7", "p7s", "p7m", "pkcs7", "jws", "jwt", "b64", "base64",
    ]

    /// Why a file found in a directory, its name no document's, is passed over: it is empty (or white space: a lock
    /// file, a placeholder), or it holds no receipt or JWS as the one classifier finds them (pasted text around them
    /// included). Nil when it is taken: it may hold one, it is beyond `classifiedSize` (its reader judges it), or it
    /// fails to read (its reader says why).
    package static func reasonToPassOver(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        // The throwing read: a file that fails to read (an I/O error, /proc/self/mem) is taken, and its reader says
        // why (the non-throwing one trapped: a hostile-bytes trial's SIGILL).
        let head: [UInt8]
        do {
            head = [UInt8](try handle.read(upToCount: classifiedSize + 1) ?? Data())
        } catch {
            return nil
        }
        guard head.count <= classifiedSize else { return nil }
        if head.allSatisfy(ByteSet.whitespace.contains) {
            return "empty (or only white space): no receipt or JWS in it"
        }
        return InputClassifier.classify(head).holdsDocuments ? nil : "its content is clearly not a receipt or a JWS"
    }

    /// The largest directory entry the classifier reads to decide whether it is a candidate.
    static let classifiedSize = 4 << 20

    private struct Progress: ~Copyable {
        var next = 0
        var nextToEmit = 0
        var done: [Int: [UInt8]] = [:]
        var reasons: [Int: String] = [:]
        var summary = BatchSummary()
    }

    /// Inspects every path on `jobs` threads and hands each line to `emit` in input order, then returns the counts.
    /// `progress` is told how many are done, serially.
    package func run(emit: @Sendable ([UInt8]) -> Void, progress: @Sendable (Int, Int) -> Void) -> BatchSummary {
        let state = Mutex(Progress())
        let total = paths.count
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(total, 1))) { _ in
            while true {
                let index: Int? = state.withLock { shared in
                    guard shared.next < total else { return nil }
                    defer { shared.next += 1 }
                    return shared.next
                }
                guard let index else { return }
                let (line, outcome) = inspectLine(paths[index])
                state.withLock { shared in
                    shared.done[index] = line
                    switch outcome.kind {
                    case let kind?: shared.summary.kinds[kind, default: 0] += 1
                    case nil: shared.summary.unloadable += 1
                    }
                    switch outcome.verdict {
                    case .valid:
                        shared.summary.read += 1
                        shared.summary.valid += 1
                    case .invalid(let reason):
                        shared.summary.read += 1
                        shared.reasons[index] = reason
                    case .unreadable(let reason):
                        shared.summary.unreadable += 1
                        shared.reasons[index] = reason
                    }
                    // Emit every finished line that is next in input order.
                    while let ready = shared.done.removeValue(forKey: shared.nextToEmit) {
                        emit(ready)
                        shared.nextToEmit += 1
                        progress(shared.nextToEmit, total)
                    }
                }
            }
        }
        return state.withLock { shared in
            var summary = shared.summary
            summary.failures = shared.reasons.keys.sorted().compactMap { index in
                shared.reasons[index].map { BatchFailure(path: paths[index], reason: $0) }
            }
            return summary
        }
    }

    /// What one input was: its kind (nil: the file could not be loaded) and its verdict.
    private struct Outcome {
        enum Verdict {
            case valid
            case invalid(String)
            case unreadable(String)
        }
        var kind: DocumentKind?
        var verdict: Verdict
    }

    /// The line for `path` and what it was.
    private func inspectLine(_ path: String) -> ([UInt8], Outcome) {
        let input: [UInt8]
        switch InputFile.load(path) {
        case .success(let bytes): input = bytes
        case .failure(let unreadable):
            return (
                line(nil, path), Outcome(kind: nil, verdict: .unreadable("cannot read the file: \(unreadable.reason)"))
            )
        }
        let classified = InputClassifier.classify(input, forced: options.forcedFormat)
        let inspection = Inspector.inspect(classified, input: input, options: options)
        let output = line(inspection, path)
        func outcome(_ verdict: Outcome.Verdict) -> ([UInt8], Outcome) {
            (output, Outcome(kind: classified.kind, verdict: verdict))
        }
        guard kinds.contains(classified.kind) else {
            return outcome(.unreadable("a \(inspection.kind) input, which this output does not describe"))
        }
        if let error = inspection.readError { return outcome(.unreadable("\(error.code): \(error.message)")) }
        guard inspection.isValid else { return outcome(.invalid(inspection.codes(.error).joined(separator: ", "))) }
        return outcome(.valid)
    }
}

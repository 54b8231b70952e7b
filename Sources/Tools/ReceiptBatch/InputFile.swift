import Foundation

/// Reading one input file, for every command and the batch engine alike: a regular file whole, straight into one
/// array sized from `fstat` (no intermediate `Data`, so a large receipt is held once, not twice; reading on if the
/// file grew), up to `fileLimit`; anything else (standard input, a pipe, a device) to at most `streamLimit` bytes,
/// since it has no size to trust and `/dev/zero` never ends.
package enum InputFile {
    /// The most read from an input that is not a regular file.
    package static let streamLimit = 256 << 20
    /// The largest regular file read (a 100 000-record receipt is 30 MB): a sparse or growing file is refused before
    /// anything is allocated for it, never read until memory runs out.
    package static let fileLimit = 1 << 30

    /// Why an input could not be read, in words for a message ("no such file", "permission denied" …).
    package struct Unreadable: Error, Sendable, Hashable {
        package var reason: String
    }

    /// The bytes of the file at `path`; nil on any I/O error, or past the limit.
    package static func read(_ path: String) -> [UInt8]? { try? load(path).get() }

    /// The bytes of the file at `path`, or why they cannot be read.
    package static func load(_ path: String) -> Result<[UInt8], Unreadable> {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return .failure(Unreadable(reason: describe(errno))) }
        defer { close(descriptor) }
        return load(descriptor: descriptor)
    }

    /// Why the file at `path` cannot be read, for a message about a read that failed earlier.
    package static func problem(_ path: String) -> String {
        guard case .failure(let unreadable) = load(path) else { return "it could not be read, then could (it changed)" }
        return unreadable.reason
    }

    /// Whether `path` (followed through links) is a regular file.
    package static func isRegular(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Reads `descriptor` to its end: a regular file whole, anything else to at most `streamLimit` bytes.
    package static func read(descriptor: Int32) -> [UInt8]? { try? load(descriptor: descriptor).get() }

    /// Reads `descriptor` to its end, or says why it cannot.
    package static func load(descriptor: Int32) -> Result<[UInt8], Unreadable> {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(Unreadable(reason: describe(errno))) }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR { return .failure(Unreadable(reason: "it is a directory")) }
        let isRegular = type == S_IFREG
        let limit = isRegular ? fileLimit : streamLimit
        guard !isRegular || Int64(status.st_size) <= Int64(fileLimit) else {
            return .failure(Unreadable(reason: "it is larger than the \(fileLimit >> 30) GiB rcpt reads from a file"))
        }
        let expected = isRegular ? Swift.max(Int(status.st_size), 0) : 0
        var failure: Int32?
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            count = 0
            while count < expected, let base = buffer.baseAddress {
                let got = posixRead(descriptor, base + count, expected - count)
                if got < 0 && errno == EINTR { continue }
                if got < 0 { failure = errno }
                if got <= 0 { break }
                count += got
            }
        }
        // The rest: a stream's bytes, or a regular file's that grew. A regular file read whole meets its end at
        // once, so the chunk starts small (one read of a few bytes finds it) and grows for a stream.
        var chunk = [UInt8](repeating: 0, count: isRegular ? 16 : 65_536)
        while failure == nil {
            let got = chunk.withUnsafeMutableBytes { posixRead(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { failure = errno }
            if got <= 0 { break }
            bytes.append(contentsOf: chunk[0..<got])
            if chunk.count < 65_536 { chunk = [UInt8](repeating: 0, count: 65_536) }
            if bytes.count > limit {
                return .failure(
                    Unreadable(
                        reason: isRegular
                            ? "it grew past the \(fileLimit >> 30) GiB rcpt reads from a file while it was read"
                            : "it holds more than the \(streamLimit >> 20) MiB rcpt reads from a pipe or device"))
            }
        }
        if let failure { return .failure(Unreadable(reason: "an I/O error (\(describe(failure)))")) }
        return .success(bytes)
    }

    /// `errno` in words, as a clause. A table, not strerror(3), which is not safe on the batch's threads.
    static func describe(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case ENOTDIR: return "a part of the path is not a directory"
        case ELOOP: return "too many symbolic links"
        case ENAMETOOLONG: return "the name is too long"
        case EMFILE, ENFILE: return "too many files open"
        case EIO: return "an input/output error"
        case ENXIO, ENODEV: return "no such device"
        default: return "errno \(code)"
        }
    }
}

/// The C library's read(2), named apart from `InputFile.read`.
private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

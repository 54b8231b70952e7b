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

    /// The bytes of the file at `path`; nil on any I/O error, or past the limit.
    package static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return read(descriptor: descriptor)
    }

    /// Whether `path` (followed through links) is a regular file.
    package static func isRegular(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Reads `descriptor` to its end: a regular file whole, anything else to at most `streamLimit` bytes.
    package static func read(descriptor: Int32) -> [UInt8]? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        let isRegular = (status.st_mode & S_IFMT) == S_IFREG
        let limit = isRegular ? fileLimit : streamLimit
        guard !isRegular || Int64(status.st_size) <= Int64(fileLimit) else { return nil }
        let expected = isRegular ? Swift.max(Int(status.st_size), 0) : 0
        var failed = false
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            count = 0
            while count < expected, let base = buffer.baseAddress {
                let got = posixRead(descriptor, base + count, expected - count)
                if got < 0 && errno == EINTR { continue }
                if got < 0 { failed = true }
                if got <= 0 { break }
                count += got
            }
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !failed {
            let got = chunk.withUnsafeMutableBytes { posixRead(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { failed = true }
            if got <= 0 { break }
            bytes.append(contentsOf: chunk[0..<got])
            if bytes.count > limit { failed = true }
        }
        return failed ? nil : bytes
    }
}

/// The C library's read(2), named apart from `InputFile.read`.
private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

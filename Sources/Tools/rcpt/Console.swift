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

/// A failure that ends a command with a message on standard error and exit code 2.
enum CommandFailure: Error, CustomStringConvertible {
    case usage(String)
    case unreadable(String)

    var description: String {
        switch self {
        case .usage(let message), .unreadable(let message): return message
        }
    }
}

/// Output helpers: whole buffers to standard output, messages to standard error.
enum Console {
    /// The absolute path of the running rcpt (for command lines it suggests), or "rcpt" when it cannot be told.
    static var executablePath: String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        if let path = Bundle.main.executablePath { return path }
        return "rcpt"
    }

    static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    /// Writes a borrowed buffer (a streamed JSON chunk) whole.
    static func write(_ buffer: UnsafeBufferPointer<UInt8>) { write(buffer, to: STDOUT_FILENO) }

    /// Writes `buffer` whole to `descriptor` with write(2), giving up quietly when the reader has gone (a closed
    /// pipe or stream): never `FileHandle.write`, which traps on such an error. Any other failure of standard output
    /// (a full disk: `> /dev/full`) is kept, and the command ends with exit 2 (`guarded`).
    private static func write(_ buffer: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
        var offset = 0
        while offset < buffer.count, let base = buffer.baseAddress {
            let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 {
                let code = written < 0 ? errno : EIO
                if descriptor == STDOUT_FILENO, code != EPIPE, code != EBADF { outputFailure.keep(code) }
                return
            }
            offset += written
        }
    }

    /// The first error writing standard output met, if any.
    private static let outputFailure = OutputFailure()

    final class OutputFailure: @unchecked Sendable {
        private let lock = NSLock()
        private var code: Int32?

        func keep(_ code: Int32) { lock.withLock { if self.code == nil { self.code = code } } }
        var first: Int32? { lock.withLock { code } }
    }

    static func write(_ text: String) { write(Array(text.utf8)) }

    /// `text` as it is to standard error (a progress line, a help text).
    static func standardError(_ text: String) {
        Array(text.utf8).withUnsafeBufferPointer { write($0, to: STDERR_FILENO) }
    }

    static func error(_ message: String) { standardError("rcpt: " + message + "\n") }

    /// Runs `body`, turning a CommandFailure into its message and exit code 2.
    static func guarded(_ body: () throws -> Int32) throws -> Never {
        do {
            let code = try body()
            Interruption.yieldToInterruption()
            if let problem = outputFailure.first {
                throw CommandFailure.unreadable("cannot write the output: \(String(cString: strerror(problem)))")
            }
            throw ExitCode(code)
        } catch let failure as CommandFailure {
            Interruption.yieldToInterruption()
            error(failure.description)
            throw ExitCode(2)
        }
    }
}

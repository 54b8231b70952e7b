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
    static func write(_ buffer: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < buffer.count, let base = buffer.baseAddress {
            let written = Foundation.write(STDOUT_FILENO, base + offset, buffer.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }

    static func write(_ text: String) { write(Array(text.utf8)) }

    static func error(_ message: String) {
        FileHandle.standardError.write(Data(("rcpt: " + message + "\n").utf8))
    }

    /// Runs `body`, turning a CommandFailure into its message and exit code 2.
    static func guarded(_ body: () throws -> Int32) throws -> Never {
        do {
            let code = try body()
            throw ExitCode(code)
        } catch let failure as CommandFailure {
            error(failure.description)
            throw ExitCode(2)
        }
    }
}

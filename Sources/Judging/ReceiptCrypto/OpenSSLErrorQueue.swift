import COpenSSL

/// Access to OpenSSL's per-thread error queue, so that errors are reported once and never leak between calls.
package enum OpenSSLErrorQueue {
    /// Removes every entry from the calling thread's error queue and returns them formatted, oldest first.
    package static func drain() -> [String] {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 {
                break
            }
            var buffer = [CChar](repeating: 0, count: 256)
            buffer.withUnsafeMutableBufferPointer { pointer in
                ERR_error_string_n(code, pointer.baseAddress, pointer.count)
            }
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            messages.append(String(decoding: bytes, as: UTF8.self))
        }
        return messages
    }

    /// Discards every entry in the calling thread's error queue.
    package static func clear() {
        ERR_clear_error()
    }
}

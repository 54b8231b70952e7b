import COpenSSL

/// Helpers for OpenSSL memory BIOs, the bridge between Swift byte arrays and OpenSSL's streaming encoders.
enum MemoryBIO {
    /// Runs `body` with a fresh writable memory BIO and returns everything written to it as bytes.
    ///
    /// Returns nil when the BIO cannot be created or `body` returns false.
    static func collect(_ body: (OpaquePointer) -> Bool) -> [UInt8]? {
        guard let method = BIO_s_mem(), let bio = BIO_new(method) else {
            return nil
        }
        defer { BIO_free(bio) }
        guard body(bio) else {
            return nil
        }
        var data: UnsafeMutablePointer<CChar>?
        let length = rcpt_bio_get_mem_data(bio, &data)
        guard length > 0, let data else {
            return []
        }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) { pointer in
            Array(UnsafeBufferPointer(start: pointer, count: length))
        }
    }

    /// Runs `body` with a read-only memory BIO over `bytes`; nil when the BIO cannot be created or is too large.
    static func reading<Value>(_ bytes: [UInt8], _ body: (OpaquePointer) throws(CryptoError) -> Value)
        throws(CryptoError) -> Value?
    {
        guard let length = Int32(exactly: bytes.count) else {
            return nil
        }
        // OpenSSL rejects a null buffer even for length 0, and an empty array may have no storage.
        let storage: [UInt8] = bytes.isEmpty ? [0] : bytes
        let outcome: Result<Value, CryptoError>? = storage.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, length) else {
                return nil
            }
            defer { BIO_free(bio) }
            do throws(CryptoError) {
                return .success(try body(bio))
            } catch {
                return .failure(error)
            }
        }
        return try outcome?.get()
    }
}

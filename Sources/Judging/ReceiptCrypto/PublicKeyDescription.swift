import COpenSSL

/// Short human descriptions of public keys: "RSA 2048", "EC 256 (prime256v1)", "Ed25519" or "unknown".
enum PublicKeyDescription {
    /// Describes an `EVP_PKEY`; "unknown" for nil or any type other than RSA, EC and Ed25519.
    static func describe(_ key: OpaquePointer?) -> String {
        defer { OpenSSLErrorQueue.clear() }
        guard let key else {
            return "unknown"
        }
        let bits = EVP_PKEY_get_bits(key)
        if EVP_PKEY_is_a(key, "RSA") == 1 {
            return "RSA \(bits)"
        }
        if EVP_PKEY_is_a(key, "EC") == 1 {
            var buffer = [CChar](repeating: 0, count: 80)
            var length = 0
            let found = buffer.withUnsafeMutableBufferPointer { pointer in
                EVP_PKEY_get_group_name(key, pointer.baseAddress, pointer.count, &length)
            }
            guard found == 1, length < buffer.count else {
                return "EC \(bits)"
            }
            let group = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return "EC \(bits) (\(group))"
        }
        if EVP_PKEY_is_a(key, "ED25519") == 1 {
            return "Ed25519"
        }
        return "unknown"
    }
}

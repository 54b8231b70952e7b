import COpenSSL

/// Formatting and comparison of X.509 distinguished names (`X509_NAME`).
enum DistinguishedName {
    /// The name on one line in RFC 2253 order, as `XN_FLAG_RFC2253` prints it but with UTF-8 left unescaped.
    ///
    /// Returns nil only when OpenSSL cannot allocate or print.
    static func format(_ name: OpaquePointer?) -> String? {
        guard let name else {
            return nil
        }
        let printed = MemoryBIO.collect { bio in
            X509_NAME_print_ex(bio, name, 0, rcpt_xn_flag_rfc2253_utf8()) >= 0
        }
        return printed.map { String(decoding: $0, as: UTF8.self) }
    }

    /// `format(name)`, or for a name OpenSSL cannot print "#" and the lowercase hex of its DER (RFC 4514's raw form).
    static func display(_ name: OpaquePointer?) -> String {
        format(name) ?? der(name).map { "#" + Hex.lowercase($0) } ?? "#"
    }

    /// The DER encoding of the name as it appeared in the certificate, or nil when OpenSSL cannot produce it.
    static func der(_ name: OpaquePointer?) -> [UInt8]? {
        guard let name else {
            return nil
        }
        var pointer: UnsafePointer<UInt8>?
        var length = 0
        guard X509_NAME_get0_der(name, &pointer, &length) == 1, let pointer else {
            return nil
        }
        return Array(UnsafeBufferPointer(start: pointer, count: length))
    }
}

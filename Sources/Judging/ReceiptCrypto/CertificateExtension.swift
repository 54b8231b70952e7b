import COpenSSL

/// One X.509v3 extension of a certificate, decoded for display.
package struct CertificateExtension: Sendable, Equatable {
    /// The extension's OID in dotted decimal, e.g. "2.5.29.19".
    package var oid: String
    /// OpenSSL's long name (e.g. "X509v3 Basic Constraints"), a receipt-specific name, or the dotted OID.
    package var name: String
    /// Whether the extension is marked critical.
    package var critical: Bool
    /// `X509V3_EXT_print` output on one line ("; " between lines), or lowercase hex of the raw extnValue contents.
    package var value: String

    /// Creates an extension description from its parts.
    package init(oid: String, name: String, critical: Bool, value: String) {
        self.oid = oid
        self.name = name
        self.critical = critical
        self.value = value
    }
}

extension CertificateExtension {
    /// Decodes an `X509_EXTENSION`; nil only when OpenSSL cannot render its OID.
    init?(openSSLExtension: OpaquePointer) {
        let object = X509_EXTENSION_get_object(openSSLExtension)
        guard let oid = ObjectName.dotted(object) else {
            return nil
        }
        self.oid = oid
        self.name = ObjectName.longName(object, dotted: oid)
        self.critical = X509_EXTENSION_get_critical(openSSLExtension) > 0
        if let printed = Self.printed(openSSLExtension) {
            self.value = printed
        } else {
            self.value = Self.rawHex(openSSLExtension)
        }
    }

    /// OpenSSL's text rendering joined onto one line, or nil when OpenSSL does not know or cannot parse the type.
    private static func printed(_ openSSLExtension: OpaquePointer) -> String? {
        defer { OpenSSLErrorQueue.clear() }
        guard let bytes = MemoryBIO.collect({ X509V3_EXT_print($0, openSSLExtension, 0, 0) == 1 }) else {
            return nil
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty }
        return lines.joined(separator: "; ")
    }

    /// Lowercase hex of the extension's OCTET STRING contents.
    private static func rawHex(_ openSSLExtension: OpaquePointer) -> String {
        guard let data = X509_EXTENSION_get_data(openSSLExtension) else {
            return ""
        }
        let length = Int(ASN1_STRING_length(data))
        guard length > 0, let pointer = ASN1_STRING_get0_data(data) else {
            return ""
        }
        return Hex.lowercase(UnsafeBufferPointer(start: pointer, count: length))
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    fileprivate func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

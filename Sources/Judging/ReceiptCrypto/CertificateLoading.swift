import COpenSSL
import ReceiptDiagnostics

extension Certificate {
    /// Every certificate in a file that is DER (one cert) or PEM (one or more "CERTIFICATE" blocks).
    ///
    /// Input starting with a DER SEQUENCE tag (0x30) is decoded as exactly one DER certificate, unless that fails and
    /// the input contains a "-----BEGIN " line (a PEM file whose text starts with "0"). Anything else is read as PEM,
    /// where blocks of other types (keys, CRLs) are skipped and text around blocks is ignored. Throws
    /// "certificate-decode-failed" when no certificate is found or any block or certificate is malformed.
    public static func load(fileContents: [UInt8]) throws(CryptoError) -> [Certificate] {
        guard let first = fileContents.first else {
            throw CryptoError(.certificateDecodeFailed, message: "file is empty")
        }
        if first == 0x30 {
            do throws(CryptoError) {
                return [try Certificate(derEncoded: fileContents)]
            } catch {
                guard containsPEMBoundary(fileContents) else {
                    throw error
                }
            }
        }
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        let certificates = try MemoryBIO.reading(fileContents) { bio throws(CryptoError) in
            try readPEMCertificates(bio)
        }
        guard let certificates else {
            throw .openSSL(.certificateDecodeFailed, "cannot read the file (too large or out of memory)")
        }
        guard !certificates.isEmpty else {
            throw CryptoError(
                .certificateDecodeFailed,
                message: "no DER certificate and no PEM CERTIFICATE block"
            )
        }
        return certificates
    }

    /// Whether `bytes` contain "-----BEGIN ", the start of a PEM boundary line.
    private static func containsPEMBoundary(_ bytes: [UInt8]) -> Bool {
        let boundary = Array("-----BEGIN ".utf8)
        guard bytes.count >= boundary.count else {
            return false
        }
        return (0...(bytes.count - boundary.count)).contains { start in
            bytes[start..<(start + boundary.count)].elementsEqual(boundary)
        }
    }

    /// PEM block types that hold a plain DER certificate.
    private static let pemCertificateLabels: Set<String> = ["CERTIFICATE", "X509 CERTIFICATE"]

    /// Reads PEM blocks from `bio` until its end and decodes the certificate blocks.
    private static func readPEMCertificates(_ bio: OpaquePointer) throws(CryptoError) -> [Certificate] {
        var certificates: [Certificate] = []
        while true {
            var name: UnsafeMutablePointer<CChar>?
            var header: UnsafeMutablePointer<CChar>?
            var data: UnsafeMutablePointer<UInt8>?
            var length = 0
            guard PEM_read_bio(bio, &name, &header, &data, &length) == 1 else {
                if rcpt_err_is_pem_no_start_line(ERR_peek_last_error()) == 1 {
                    // The normal end of input: no further "-----BEGIN" line.
                    OpenSSLErrorQueue.clear()
                    return certificates
                }
                throw .openSSL(
                    .certificateDecodeFailed,
                    "malformed PEM block after \(certificates.count) certificates"
                )
            }
            defer {
                rcpt_openssl_free(name)
                rcpt_openssl_free(header)
                rcpt_openssl_free(data)
            }
            let label = name.map { String(cString: $0) } ?? ""
            guard pemCertificateLabels.contains(label) else {
                continue
            }
            var der: [UInt8] = []
            if length > 0, let data {
                der = Array(UnsafeBufferPointer(start: data, count: length))
            }
            certificates.append(try Certificate(derEncoded: der))
        }
    }
}

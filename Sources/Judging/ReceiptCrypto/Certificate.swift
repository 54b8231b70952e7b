import COpenSSL
import Foundation
import ReceiptDiagnostics

/// A decoded X.509 certificate: an owned OpenSSL `X509` plus its fields, read once at decode time.
///
/// Immutable after init but for the verification contexts it keeps for its key (`VerificationContexts`, thread safe),
/// so it is safe to share across threads. Every field is derived from the original bytes
/// passed to `init(derEncoded:)`, which are kept verbatim in `derEncoded`.
public final class Certificate: @unchecked Sendable {
    /// The owned OpenSSL certificate; freed in deinit.
    let x509: OpaquePointer

    /// The exact bytes the certificate was decoded from.
    public let derEncoded: [UInt8]
    /// Subject on one line in RFC 2253 order with UTF-8 unescaped,
    /// e.g. "CN=Apple Root CA,OU=Apple Certification Authority,O=Apple Inc.,C=US".
    public let subject: String
    /// Issuer on one line in RFC 2253 order, formatted like `subject`.
    public let issuer: String
    /// Lowercase hex of the serial number's magnitude without leading zero bytes; "-" prefix if negative, "0" for zero.
    package let serialHex: String
    /// Start of the validity period in unix seconds.
    public let notBefore: Int64
    /// End of the validity period in unix seconds.
    public let notAfter: Int64
    /// OpenSSL's long name of the signature algorithm (e.g. "sha1WithRSAEncryption"), or its dotted OID.
    package let signatureAlgorithm: String
    /// Whether the issuer signed it with SHA-1 or MD5 (its `signatureAlgorithm` names either).
    package let isSignedWithWeakDigest: Bool
    /// "RSA 2048", "EC 256 (prime256v1)", "Ed25519", or "unknown".
    package let publicKeyDescription: String
    /// Lowercase hex SHA-256 of `derEncoded`, no colons.
    public let sha256Fingerprint: String
    /// The certificate's extensions in encoded order.
    package let extensions: [CertificateExtension]
    /// Whether the subject and issuer names have identical DER encodings.
    package let isSelfIssued: Bool
    /// The public key's algorithm family.
    package let keyAlgorithm: KeyAlgorithm
    /// Whether the key is EC on P-256 (prime256v1), the only key ES256 signs with.
    package let hasP256Key: Bool
    /// Whether basicConstraints says CA:TRUE.
    package let isCertificateAuthority: Bool
    /// Whether the keyUsage extension allows digitalSignature (nil: no keyUsage extension, so any use is allowed).
    package let keyUsageAllowsDigitalSignature: Bool?
    /// Whether the certificate carries an extendedKeyUsage extension.
    package let hasExtendedKeyUsage: Bool
    /// Whether the bytes it was decoded from are what OpenSSL encodes it to (i2d_X509): false for a BER length or
    /// another non-canonical encoding OpenSSL's reader accepts, which DER-only readers (Apple's) refuse.
    package let isDistinguishedEncoding: Bool
    /// Its key set up for verification, kept between the signatures it checks (the one state that changes).
    let verificationContexts: VerificationContexts

    /// Decodes one DER certificate (d2i_X509) that must span exactly all of `derEncoded`.
    public init(derEncoded: ArraySlice<UInt8>) throws(CryptoError) {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        let bytes = Array(derEncoded)
        guard !bytes.isEmpty else {
            throw CryptoError(.certificateDecodeFailed, message: "no certificate bytes")
        }
        var consumed = 0
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            let certificate = d2i_X509(nil, &cursor, buffer.count)
            if let cursor, let base = buffer.baseAddress {
                consumed = cursor - base
            }
            return certificate
        }
        guard let parsed else {
            throw .openSSL(.certificateDecodeFailed, "bytes are not a DER X.509 certificate")
        }
        guard consumed == bytes.count else {
            X509_free(parsed)
            throw CryptoError(
                .certificateDecodeFailed,
                message: "\(bytes.count - consumed) trailing bytes after the \(consumed)-byte certificate"
            )
        }
        do throws(CryptoError) {
            let subjectName = X509_get_subject_name(parsed)
            let issuerName = X509_get_issuer_name(parsed)
            guard let subjectDER = DistinguishedName.der(subjectName),
                let issuerDER = DistinguishedName.der(issuerName)
            else {
                throw .openSSL(.certificateDecodeFailed, "cannot read the subject or issuer name")
            }
            guard let notBefore = UnixTime.seconds(X509_get0_notBefore(parsed)) else {
                throw .openSSL(.certificateDecodeFailed, "notBefore is not a valid ASN.1 time")
            }
            guard let notAfter = UnixTime.seconds(X509_get0_notAfter(parsed)) else {
                throw .openSSL(.certificateDecodeFailed, "notAfter is not a valid ASN.1 time")
            }
            guard let signatureAlgorithm = Self.signatureAlgorithmName(parsed) else {
                throw .openSSL(.certificateDecodeFailed, "cannot read the signature algorithm")
            }
            self.sha256Fingerprint = Hex.lowercase(try Digest.compute([bytes[...]], algorithm: .sha256).get())
            self.extensions = try Self.extensions(parsed)
            self.x509 = parsed
            self.derEncoded = bytes
            self.subject = DistinguishedName.display(subjectName)
            self.issuer = DistinguishedName.display(issuerName)
            self.serialHex = Self.serialHex(X509_get0_serialNumber(parsed))
            self.notBefore = notBefore
            self.notAfter = notAfter
            self.signatureAlgorithm = signatureAlgorithm
            let lowered = signatureAlgorithm.lowercased()
            self.isSignedWithWeakDigest = lowered.contains("sha1") || lowered.contains("md5")
            self.publicKeyDescription = PublicKeyDescription.describe(X509_get0_pubkey(parsed))
            self.isSelfIssued = subjectDER == issuerDER
            self.keyAlgorithm = KeyAlgorithm(X509_get0_pubkey(parsed))
            self.hasP256Key = keyAlgorithm == .ec && publicKeyDescription.contains("prime256v1")
            let flags = X509_get_extension_flags(parsed)
            self.isCertificateAuthority = flags & UInt32(EXFLAG_CA) != 0
            self.keyUsageAllowsDigitalSignature =
                flags & UInt32(EXFLAG_KUSAGE) == 0
                ? nil
                : X509_get_key_usage(parsed) & UInt32(KU_DIGITAL_SIGNATURE) != 0
            self.hasExtendedKeyUsage = flags & UInt32(EXFLAG_XKUSAGE) != 0
            self.isDistinguishedEncoding = Self.isDistinguished(parsed, bytes)
            self.verificationContexts = VerificationContexts(key: X509_get0_pubkey(parsed))
        } catch {
            X509_free(parsed)
            throw error
        }
    }

    /// Decodes one DER certificate that must span exactly all of `derEncoded`.
    public convenience init(derEncoded: [UInt8]) throws(CryptoError) {
        try self.init(derEncoded: derEncoded[...])
    }

    /// A certificate of its own for an OpenSSL `X509` owned elsewhere (re-encoded with i2d_X509 and decoded).
    convenience init(copying x509: OpaquePointer) throws(CryptoError) {
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(x509, &output)
        guard length > 0, let output else {
            throw .openSSL(.certificateDecodeFailed, "cannot encode a certificate of the verified path")
        }
        defer { rcpt_openssl_free(output) }
        try self.init(derEncoded: Array(UnsafeBufferPointer(start: output, count: Int(length))))
    }

    deinit {
        X509_free(x509)
    }

    /// Whether `bytes` are what OpenSSL encodes `x509` to (i2d_X509).
    private static func isDistinguished(_ x509: OpaquePointer, _ bytes: [UInt8]) -> Bool {
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(x509, &output)
        guard length > 0, let output else { return false }
        defer { rcpt_openssl_free(output) }
        return Int(length) == bytes.count
            && bytes.withUnsafeBufferPointer { buffer in
                buffer.elementsEqual(UnsafeBufferPointer(start: output, count: Int(length)))
            }
    }

    /// `derEncoded` as a PEM "CERTIFICATE" block with 64-column base64 lines and a trailing newline.
    package var pemEncoded: String {
        let body = Data(derEncoded).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n"
    }
}

/// The family of a certificate's public key, as far as signature checks care.
package enum KeyAlgorithm: String, Sendable {
    case rsa = "RSA"
    case ec = "EC"
    case other

    init(_ key: OpaquePointer?) {
        defer { OpenSSLErrorQueue.clear() }
        guard let key else {
            self = .other
            return
        }
        if EVP_PKEY_is_a(key, "RSA") == 1 {
            self = .rsa
        } else if EVP_PKEY_is_a(key, "EC") == 1 {
            self = .ec
        } else {
            self = .other
        }
    }
}

extension Certificate {
    /// The extensions of `x509` in encoded order.
    private static func extensions(_ x509: OpaquePointer) throws(CryptoError) -> [CertificateExtension] {
        var extensions: [CertificateExtension] = []
        let count = X509_get_ext_count(x509)
        if count > 0 {
            for index in 0..<count {
                guard let raw = X509_get_ext(x509, index), let decoded = CertificateExtension(openSSLExtension: raw)
                else {
                    throw .openSSL(.certificateDecodeFailed, "cannot read extension \(index)")
                }
                extensions.append(decoded)
            }
        }
        return extensions
    }

    /// Long name of the outer signature algorithm, falling back to its dotted OID.
    static func signatureAlgorithmName(_ x509: OpaquePointer) -> String? {
        var algorithm: UnsafePointer<X509_ALGOR>?
        X509_get0_signature(nil, &algorithm, x509)
        var object: OpaquePointer?
        X509_ALGOR_get0(&object, nil, nil, algorithm)
        guard let dotted = ObjectName.dotted(object) else {
            return nil
        }
        return ObjectName.longName(object, dotted: dotted)
    }

    /// Hex of an ASN.1 INTEGER's magnitude with a "-" for negatives and "0" for zero.
    private static func serialHex(_ serial: UnsafePointer<ASN1_INTEGER>?) -> String {
        guard let serial else {
            return "0"
        }
        let length = Int(ASN1_STRING_length(serial))
        var magnitude: ArraySlice<UInt8> = []
        if length > 0, let data = ASN1_STRING_get0_data(serial) {
            magnitude = Array(UnsafeBufferPointer(start: data, count: length))[...]
        }
        magnitude = magnitude.drop(while: { $0 == 0 })
        guard !magnitude.isEmpty else {
            return "0"
        }
        let negative = (ASN1_STRING_type(serial) & V_ASN1_NEG) != 0
        return (negative ? "-" : "") + Hex.lowercase(magnitude)
    }
}

import COpenSSL
import ReceiptDiagnostics

extension Certificate {
    /// Issues a new certificate signed by `issuerKey` (self-signed when `issuer` is nil). For test CAs.
    ///
    /// The certificate is X.509 v3 with the request's subject, serial and validity, the subject key's public key,
    /// basicConstraints/keyUsage as `CertificateRequest.isCertificateAuthority` describes, a subjectKeyIdentifier, an
    /// authorityKeyIdentifier (the issuer's subjectKeyIdentifier) and the request's extra extensions, in that order.
    package static func issue(
        _ request: CertificateRequest,
        subjectKey: PrivateKey,
        issuer: Certificate?,
        issuerKey: PrivateKey,
        digest: DigestAlgorithm
    ) throws(CryptoError) -> Certificate {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        let der = try withExtendedLifetime((subjectKey, issuer, issuerKey)) { () throws(CryptoError) -> [UInt8] in
            try CertificateIssuer(request: request, digest: digest).build(
                subjectKey: subjectKey.pkey,
                issuer: issuer?.x509,
                issuerKey: issuerKey.pkey
            )
        }
        return try Certificate(derEncoded: der)
    }
}

/// Assembles, signs and encodes one certificate with OpenSSL's X509 builder functions.
private struct CertificateIssuer {
    let request: CertificateRequest
    let digest: DigestAlgorithm

    /// The DER encoding of the signed certificate.
    func build(subjectKey: OpaquePointer, issuer: OpaquePointer?, issuerKey: OpaquePointer) throws(CryptoError)
        -> [UInt8]
    {
        guard let x509 = X509_new() else {
            throw failure("cannot allocate a certificate")
        }
        defer { X509_free(x509) }
        guard X509_set_version(x509, Int(X509_VERSION_3)) == 1,
            ASN1_INTEGER_set_uint64(X509_get_serialNumber(x509), request.serialNumber) == 1,
            ASN1_TIME_set(X509_getm_notBefore(x509), time_t(clamping: request.notBefore)) != nil,
            ASN1_TIME_set(X509_getm_notAfter(x509), time_t(clamping: request.notAfter)) != nil,
            X509_set_pubkey(x509, subjectKey) == 1
        else {
            throw failure("cannot set the version, serial number, validity or public key")
        }
        try setSubject(x509)
        guard X509_set_issuer_name(x509, X509_get_subject_name(issuer ?? x509)) == 1 else {
            throw failure("cannot set the issuer name")
        }
        try addStandardExtensions(x509, issuer: issuer ?? x509)
        for raw in request.extraExtensions {
            try addRawExtension(x509, oid: raw.oid, critical: raw.critical, value: raw.derValue)
        }
        guard let md = digest.evpMD, X509_sign(x509, issuerKey, md) > 0 else {
            throw failure("cannot sign the certificate with \(digest.rawValue)")
        }
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(x509, &output)
        guard length > 0, let output else {
            throw failure("cannot encode the certificate")
        }
        defer { rcpt_openssl_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    /// Builds the subject name from the request's attributes, in order, as UTF-8 strings.
    private func setSubject(_ x509: OpaquePointer) throws(CryptoError) {
        guard let name = X509_NAME_new() else {
            throw failure("cannot allocate a name")
        }
        defer { X509_NAME_free(name) }
        for entry in request.subject {
            let value = Array(entry.value.utf8)
            guard let length = Int32(exactly: value.count) else {
                throw failure("subject attribute \(entry.attribute) is too long")
            }
            let added = value.withUnsafeBufferPointer { buffer in
                X509_NAME_add_entry_by_txt(name, entry.attribute, MBSTRING_UTF8, buffer.baseAddress, length, -1, 0)
            }
            guard added == 1 else {
                throw failure("cannot add subject attribute \(entry.attribute)=\(entry.value)")
            }
        }
        guard X509_set_subject_name(x509, name) == 1 else {
            throw failure("cannot set the subject name")
        }
    }

    /// Adds basicConstraints/keyUsage, subjectKeyIdentifier and authorityKeyIdentifier via X509V3_EXT_conf_nid.
    private func addStandardExtensions(_ x509: OpaquePointer, issuer: OpaquePointer) throws(CryptoError) {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer, x509, nil, nil, 0)
        var extensions: [(nid: Int32, value: String)] = []
        if request.isCertificateAuthority {
            extensions.append((NID_basic_constraints, "critical,CA:TRUE"))
        }
        let defaultUsage = request.isCertificateAuthority ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature"
        extensions.append((NID_key_usage, request.keyUsage ?? defaultUsage))
        if let extendedKeyUsage = request.extendedKeyUsage {
            extensions.append((NID_ext_key_usage, extendedKeyUsage))
        }
        extensions.append((NID_subject_key_identifier, "hash"))
        extensions.append((NID_authority_key_identifier, "keyid:always"))
        for (nid, value) in extensions {
            guard let created = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                let name = OBJ_nid2sn(nid).map { String(cString: $0) } ?? "NID \(nid)"
                throw failure("cannot create extension \(name) = \(value)")
            }
            defer { X509_EXTENSION_free(created) }
            guard X509_add_ext(x509, created, -1) == 1 else {
                throw failure("cannot add extension \(value)")
            }
        }
    }

    /// Adds an extension whose extnValue OCTET STRING holds exactly `value`.
    private func addRawExtension(_ x509: OpaquePointer, oid: String, critical: Bool, value: [UInt8])
        throws(CryptoError)
    {
        guard let object = OBJ_txt2obj(oid, 1) else {
            throw failure("extension OID \(oid) is not a dotted-decimal OID")
        }
        defer { ASN1_OBJECT_free(object) }
        guard let octets = ASN1_OCTET_STRING_new() else {
            throw failure("cannot allocate an OCTET STRING")
        }
        defer { ASN1_OCTET_STRING_free(octets) }
        guard let length = Int32(exactly: value.count) else {
            throw failure("extension \(oid) is too long")
        }
        let storage: [UInt8] = value.isEmpty ? [0] : value
        let set = storage.withUnsafeBufferPointer { buffer in
            ASN1_OCTET_STRING_set(octets, buffer.baseAddress, length)
        }
        guard set == 1, let created = X509_EXTENSION_create_by_OBJ(nil, object, critical ? 1 : 0, octets) else {
            throw failure("cannot create extension \(oid)")
        }
        defer { X509_EXTENSION_free(created) }
        guard X509_add_ext(x509, created, -1) == 1 else {
            throw failure("cannot add extension \(oid)")
        }
    }

    private func failure(_ message: String) -> CryptoError {
        .openSSL(.certificateIssueFailed, message)
    }
}

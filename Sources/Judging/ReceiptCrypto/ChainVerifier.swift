import COpenSSL

/// X.509 path building and verification against an explicit set of trust anchors.
package enum ChainVerifier {
    /// Builds and verifies leaf → intermediates → one of `anchors` at `time` (unix seconds).
    /// Only `anchors` are trusted: intermediates (which come from the untrusted receipt) go in the untrusted stack even
    /// if self-signed; no default paths, no environment. X509_V_FLAG_USE_CHECK_TIME with X509_VERIFY_PARAM_set_time;
    /// no purpose check (the caller checks the signer's purpose). Every error is collected by a verify callback that
    /// records and continues (so the caller sees all problems); isValid is false if any occurred.
    ///
    /// Algorithm policy (`algorithmPolicy`): OpenSSL's authentication level 2, so every key in the path is at
    /// least 112-bit strong (RSA and DSA ≥ 2048 bits, EC ≥ 224 bits) and every certificate signature below the
    /// anchor uses a digest of at least 112 bits — with exactly one exception, SHA-1, which Apple's own chains
    /// used until 2023: a "digest too weak" error for a SHA-1 signature is forgiven, for MD2, MD4 or MD5 it is not.
    package static func verify(
        leaf: Certificate,
        intermediates: [Certificate],
        anchors: [Certificate],
        at time: Int64
    ) -> ChainVerification {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        return withExtendedLifetime((leaf, intermediates, anchors)) {
            run(
                leaf: leaf.x509, intermediates: intermediates.map(\.x509), anchors: anchors.map(\.x509), at: time,
                known: [leaf] + intermediates + anchors)
        }
    }

    /// Collects the errors reported to the verify callback.
    private final class ErrorLog {
        var errors: [String] = []

        func record(_ error: String) {
            if !errors.contains(error) {
                errors.append(error)
            }
        }
    }

    /// The authentication level: 112-bit security for keys and certificate signature digests.
    static let authenticationLevel: Int32 = 2

    /// The policy in one sentence, for documentation and reports.
    package static let algorithmPolicy =
        "keys of at least 112-bit strength (RSA ≥ 2048 bits, EC ≥ 224 bits) and "
        + "certificate signatures with SHA-1 or a SHA-2 digest; MD2, MD4 and MD5 are refused"

    /// Whether OpenSSL's "digest too weak" for `certificate` is only SHA-1, which the policy allows.
    private static func isForgivenSHA1(_ certificate: OpaquePointer?) -> Bool {
        guard let certificate else { return false }
        var digest: Int32 = NID_undef
        guard X509_get_signature_info(certificate, &digest, nil, nil, nil) == 1 else { return false }
        return digest == NID_sha1
    }

    /// Records the current error and tells OpenSSL to continue, so every problem in the chain is reported.
    private static let recordAndContinue: @convention(c) (Int32, OpaquePointer?) -> Int32 = { ok, context in
        guard ok == 0, let context, let log = rcpt_x509_store_ctx_get_app_data(context) else {
            return ok
        }
        let code = X509_STORE_CTX_get_error(context)
        if code == X509_V_ERR_CA_MD_TOO_WEAK, isForgivenSHA1(X509_STORE_CTX_get_current_cert(context)) {
            return 1
        }
        let depth = X509_STORE_CTX_get_error_depth(context)
        let text = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
        let location: String
        if let certificate = X509_STORE_CTX_get_current_cert(context) {
            location = "depth \(depth): \(DistinguishedName.display(X509_get_subject_name(certificate)))"
        } else {
            location = "depth \(depth)"
        }
        Unmanaged<ErrorLog>.fromOpaque(log).takeUnretainedValue().record("\(text) (\(location))")
        return 1
    }

    private static func run(
        leaf: OpaquePointer,
        intermediates: [OpaquePointer],
        anchors: [OpaquePointer],
        at time: Int64,
        known: [Certificate]
    ) -> ChainVerification {
        func failure(_ message: String) -> ChainVerification {
            let detail = OpenSSLErrorText.annotate(message, OpenSSLErrorQueue.drain())
            return ChainVerification(isValid: false, anchorSubject: nil, path: [], errors: [detail])
        }
        guard let store = X509_STORE_new() else {
            return failure("cannot create a certificate store")
        }
        defer { X509_STORE_free(store) }
        for anchor in anchors {
            guard X509_STORE_add_cert(store, anchor) == 1 else {
                return failure("cannot add a trust anchor to the store")
            }
        }
        guard let untrusted = rcpt_sk_X509_new_null() else {
            return failure("cannot create the untrusted certificate stack")
        }
        defer { rcpt_sk_X509_free(untrusted) }
        for intermediate in intermediates {
            guard rcpt_sk_X509_push(untrusted, intermediate) > 0 else {
                return failure("cannot add an intermediate certificate")
            }
        }
        guard let context = X509_STORE_CTX_new() else {
            return failure("cannot create a verification context")
        }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf, untrusted) == 1,
            let parameters = X509_STORE_CTX_get0_param(context)
        else {
            return failure("cannot initialise the verification context")
        }
        X509_VERIFY_PARAM_set_time(parameters, time_t(clamping: time))
        guard X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_USE_CHECK_TIME)) == 1 else {
            return failure("cannot set the verification time")
        }
        X509_VERIFY_PARAM_set_auth_level(parameters, authenticationLevel)

        let log = ErrorLog()
        let result: Int32 = withExtendedLifetime(log) {
            guard rcpt_x509_store_ctx_set_app_data(context, Unmanaged.passUnretained(log).toOpaque()) == 1 else {
                return -1
            }
            X509_STORE_CTX_set_verify_cb(context, recordAndContinue)
            return X509_verify_cert(context)
        }

        var path: [String] = []
        var certificates: [Certificate] = []
        if let chain = X509_STORE_CTX_get0_chain(context) {
            let count = rcpt_sk_X509_num(chain)
            if count > 0 {
                for index in 0..<count {
                    let element = rcpt_sk_X509_value(chain, index)
                    path.append(DistinguishedName.display(element.flatMap(X509_get_subject_name)))
                    // OpenSSL puts the very X509 objects it was given into the chain: find ours, copy only a stranger.
                    if let element,
                        let certificate = known.first(where: { $0.x509 == element })
                            ?? known.first(where: { X509_cmp($0.x509, element) == 0 })
                            ?? (try? Certificate(copying: element))
                    {
                        certificates.append(certificate)
                    }
                }
            }
        }
        var errors = log.errors
        if result != 1 && errors.isEmpty {
            let code = X509_STORE_CTX_get_error(context)
            let text = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
            errors.append(OpenSSLErrorText.annotate("verification failed: \(text)", OpenSSLErrorQueue.drain()))
        }
        let isValid = result == 1 && errors.isEmpty
        return ChainVerification(
            isValid: isValid,
            anchorSubject: isValid ? path.last : nil,
            path: path,
            errors: errors,
            certificates: certificates
        )
    }
}

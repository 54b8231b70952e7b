import COpenSSL

/// X.509 path building and verification against an explicit set of trust anchors.
public enum ChainVerifier {
    /// Builds and verifies leaf → intermediates → one of `anchors` at `time` (unix seconds).
    /// Only `anchors` are trusted: intermediates (which come from the untrusted receipt) go in the untrusted stack even
    /// if self-signed; no default paths, no environment. X509_V_FLAG_USE_CHECK_TIME with X509_VERIFY_PARAM_set_time;
    /// auth level 0 so SHA-1-signed Apple certificates of 2006–2016 still verify; no purpose check. Collect every error
    /// via a verify callback that records and continues (so the caller sees all problems), but isValid is false if any
    /// occurred.
    public static func verify(
        leaf: Certificate,
        intermediates: [Certificate],
        anchors: [Certificate],
        at time: Int64
    ) -> ChainVerification {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        return withExtendedLifetime((leaf, intermediates, anchors)) {
            run(leaf: leaf.x509, intermediates: intermediates.map(\.x509), anchors: anchors.map(\.x509), at: time)
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

    /// Records the current error and tells OpenSSL to continue, so every problem in the chain is reported.
    private static let recordAndContinue: @convention(c) (Int32, OpaquePointer?) -> Int32 = { ok, context in
        guard ok == 0, let context, let log = rcpt_x509_store_ctx_get_app_data(context) else {
            return ok
        }
        let code = X509_STORE_CTX_get_error(context)
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
        at time: Int64
    ) -> ChainVerification {
        func failure(_ message: String) -> ChainVerification {
            let errors = OpenSSLErrorQueue.drain()
            let detail = errors.isEmpty ? message : "\(message) (\(errors.joined(separator: "; ")))"
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
        X509_VERIFY_PARAM_set_auth_level(parameters, 0)

        let log = ErrorLog()
        let result: Int32 = withExtendedLifetime(log) {
            guard rcpt_x509_store_ctx_set_app_data(context, Unmanaged.passUnretained(log).toOpaque()) == 1 else {
                return -1
            }
            X509_STORE_CTX_set_verify_cb(context, recordAndContinue)
            return X509_verify_cert(context)
        }

        var path: [String] = []
        if let chain = X509_STORE_CTX_get0_chain(context) {
            let count = rcpt_sk_X509_num(chain)
            if count > 0 {
                for index in 0..<count {
                    let name = rcpt_sk_X509_value(chain, index).flatMap(X509_get_subject_name)
                    path.append(DistinguishedName.display(name))
                }
            }
        }
        var errors = log.errors
        if result != 1 && errors.isEmpty {
            let code = X509_STORE_CTX_get_error(context)
            let text = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
            let queued = OpenSSLErrorQueue.drain()
            let detail = queued.isEmpty ? "" : " (\(queued.joined(separator: "; ")))"
            errors.append("verification failed: \(text)\(detail)")
        }
        let isValid = result == 1 && errors.isEmpty
        return ChainVerification(
            isValid: isValid,
            anchorSubject: isValid ? path.last : nil,
            path: path,
            errors: errors
        )
    }
}

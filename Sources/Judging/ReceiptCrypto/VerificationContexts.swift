import COpenSSL
import Synchronization

/// A certificate's public key set up for verification, kept for the next signature it checks: OpenSSL 3 spends
/// about as long setting up a verification (fetching the digest and key methods, exporting the key to its provider)
/// as an RSA-2048 verification takes, and a tenth of an ECDSA P-256 one. A context is set up once per key and digest
/// and used again, one signature at a time (EVP_PKEY_verify may be called again on a context set up once, as
/// OpenSSL documents); a context taken by one thread is not seen by another until it is given back.
///
/// Bounded (at most `capacity` idle contexts a digest), thread safe. A context whose verification ended in an error
/// (neither a valid nor a mismatched signature) is freed rather than kept, so no state an error leaves reaches the
/// next signature.
final class VerificationContexts: @unchecked Sendable {
    /// Idle contexts a digest keeps at most: one a thread verifying at once is enough.
    static let capacity = 16

    /// The key every context verifies with (a reference of the pool's own), nil when the certificate has none.
    private let key: OpaquePointer?
    private let idle = Mutex<[DigestAlgorithm: [Context]]>([:])

    /// The contexts of `key` (a certificate's public key; the pool takes a reference to it).
    init(key: OpaquePointer?) {
        if let key, EVP_PKEY_up_ref(key) == 1 {
            self.key = key
        } else {
            self.key = nil
        }
    }

    /// An idle EVP_PKEY_CTX, owned by the pool; only the thread that takes it out uses it.
    private struct Context: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// The result of `body` with a context for the key set up to verify `digest` signatures (EVP_PKEY_verify_init
    /// and the signature digest), or nil when there is no key or OpenSSL cannot set one up. `body` returns OpenSSL's
    /// verify result: 1 valid, 0 a mismatch, anything else an error (the context is then freed).
    func verify(digest: DigestAlgorithm, _ body: (OpaquePointer) -> Int32) -> Int32? {
        guard let key,
            let context = take(digest) ?? Self.context(key: key, digest: digest).map(Context.init)
        else { return nil }
        let result = body(context.pointer)
        guard result == 0 || result == 1 else {
            EVP_PKEY_CTX_free(context.pointer)
            return result
        }
        let kept = idle.withLock { idle -> Bool in
            guard idle[digest, default: []].count < Self.capacity else { return false }
            idle[digest, default: []].append(context)
            return true
        }
        if !kept { EVP_PKEY_CTX_free(context.pointer) }
        return result
    }

    /// How many contexts for `digest` are idle now.
    func idleCount(for digest: DigestAlgorithm) -> Int {
        idle.withLock { idle in idle[digest]?.count ?? 0 }
    }

    private func take(_ digest: DigestAlgorithm) -> Context? {
        idle.withLock { idle in idle[digest]?.popLast() }
    }

    /// A context for `key` (which it holds a reference to) set up to verify `digest` signatures.
    private static func context(key: OpaquePointer, digest: DigestAlgorithm) -> OpaquePointer? {
        guard let md = digest.evpMD, let context = EVP_PKEY_CTX_new(key, nil) else { return nil }
        guard EVP_PKEY_verify_init(context) == 1, EVP_PKEY_CTX_set_signature_md(context, md) == 1 else {
            EVP_PKEY_CTX_free(context)
            return nil
        }
        return context
    }

    deinit {
        let contexts = idle.withLock { idle in idle.values.flatMap { $0 } }
        for context in contexts { EVP_PKEY_CTX_free(context.pointer) }
        if let key { EVP_PKEY_free(key) }
    }
}

import COpenSSL

/// One-shot message digests over byte arrays or lists of slices.
public enum Digest {
    /// Hash of the concatenation of `parts` (no copy of the parts; EVP_DigestUpdate per part).
    ///
    /// OpenSSL can only fail here when it is out of memory or its default provider is missing, neither of which
    /// depends on the input; that is treated as a broken process rather than returned as a wrong hash.
    public static func hash(_ parts: [ArraySlice<UInt8>], algorithm: DigestAlgorithm) -> [UInt8] {
        switch compute(parts, algorithm: algorithm) {
        case .success(let digest):
            return digest
        case .failure(let error):
            // Not reachable from input: only allocation failure or a missing default provider gets here.
            preconditionFailure("OpenSSL \(algorithm.rawValue) digest unavailable: \(error)")
        }
    }

    /// Hash of `bytes`.
    public static func hash(_ bytes: [UInt8], algorithm: DigestAlgorithm) -> [UInt8] {
        hash([bytes[...]], algorithm: algorithm)
    }

    /// The digest, or the OpenSSL failure that prevented it.
    static func compute(_ parts: [ArraySlice<UInt8>], algorithm: DigestAlgorithm) -> Result<[UInt8], CryptoError> {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        guard let md = algorithm.evpMD, let context = EVP_MD_CTX_new() else {
            return .failure(.openSSL("digest-failed", "cannot create a \(algorithm.rawValue) digest context"))
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, md, nil) == 1 else {
            return .failure(.openSSL("digest-failed", "EVP_DigestInit_ex failed for \(algorithm.rawValue)"))
        }
        for part in parts where !part.isEmpty {
            let updated = part.withUnsafeBytes { buffer in
                EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
            }
            guard updated == 1 else {
                return .failure(.openSSL("digest-failed", "EVP_DigestUpdate failed"))
            }
        }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let finished = output.withUnsafeMutableBufferPointer { buffer in
            EVP_DigestFinal_ex(context, buffer.baseAddress, &length)
        }
        guard finished == 1, Int(length) == algorithm.outputLength else {
            return .failure(.openSSL("digest-failed", "EVP_DigestFinal_ex failed"))
        }
        return .success(Array(output.prefix(Int(length))))
    }
}

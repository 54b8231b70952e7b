import COpenSSL
import ReceiptDiagnostics

/// One-shot message digests over byte arrays or lists of slices.
public enum Digest {
    /// Hash of the concatenation of `parts` (no copy of the parts; EVP_DigestUpdate per part).
    ///
    /// OpenSSL fails here only when it is out of memory or its default provider is missing, neither of which
    /// depends on the input; callers still get an error rather than a trap or a wrong hash.
    public static func hash(_ parts: [ArraySlice<UInt8>], algorithm: DigestAlgorithm) throws(CryptoError) -> [UInt8] {
        try compute(parts, algorithm: algorithm).get()
    }

    /// Hash of `bytes`.
    public static func hash(_ bytes: [UInt8], algorithm: DigestAlgorithm) throws(CryptoError) -> [UInt8] {
        try hash([bytes[...]], algorithm: algorithm)
    }

    /// The digest, or the OpenSSL failure that prevented it.
    static func compute(_ parts: [ArraySlice<UInt8>], algorithm: DigestAlgorithm) -> Result<[UInt8], CryptoError> {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        guard let md = algorithm.evpMD, let context = EVP_MD_CTX_new() else {
            return .failure(.openSSL(.digestFailed, "cannot create a \(algorithm.rawValue) digest context"))
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, md, nil) == 1 else {
            return .failure(.openSSL(.digestFailed, "EVP_DigestInit_ex failed for \(algorithm.rawValue)"))
        }
        for part in parts where !part.isEmpty {
            let updated = part.withUnsafeBytes { buffer in
                EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
            }
            guard updated == 1 else {
                return .failure(.openSSL(.digestFailed, "EVP_DigestUpdate failed"))
            }
        }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let finished = output.withUnsafeMutableBufferPointer { buffer in
            EVP_DigestFinal_ex(context, buffer.baseAddress, &length)
        }
        guard finished == 1, Int(length) == algorithm.outputLength else {
            return .failure(.openSSL(.digestFailed, "EVP_DigestFinal_ex failed"))
        }
        return .success(Array(output.prefix(Int(length))))
    }
}

import COpenSSL
import Foundation
import ReceiptCrypto

/// One entry of OpenSSL's error queue after a rejected decode.
public struct OpenSSLDecodeError: Sendable, Hashable, CustomStringConvertible {
    /// The library that raised it, e.g. "asn1 encoding routines".
    package var library: String
    /// The reason, e.g. "wrong tag", "nested asn1 error".
    public var reason: String
    /// Text OpenSSL attached, e.g. "Field=certificates, Type=CMS_SignedData" (empty when none).
    package var data: String

    /// The `Field=` name in `data`, when there is one.
    package var field: String? { Self.value(of: "Field=", in: data) }
    /// The `Type=` name in `data`, when there is one.
    public var type: String? { Self.value(of: "Type=", in: data) }

    /// "reason (data)".
    public var description: String { data.isEmpty ? reason : "\(reason) (\(data))" }

    private static func value(of key: String, in text: String) -> String? {
        guard let start = text.range(of: key)?.upperBound else { return nil }
        let rest = text[start...]
        return String(rest.prefix { $0 != "," })
    }
}

/// What OpenSSL's CMS decoder (`d2i_CMS_ContentInfo`) makes of a ContentInfo: an independent opinion on whether a
/// receipt container decodes and what content it carries, for the differential fuzz harness to compare with
/// `SignedDataReader`.
public struct OpenSSLCMSVerdict: Sendable, Hashable, CustomStringConvertible {
    /// Whether OpenSSL decoded the input as a ContentInfo.
    public var accepted: Bool
    /// The ContentInfo contentType in dotted form, when decoded.
    public var contentType: String?
    /// The eContentType in dotted form, when the ContentInfo holds SignedData.
    public var encapsulatedContentType: String?
    /// The eContent octets (a constructed OCTET STRING's segments joined), when SignedData carries content.
    public var content: [UInt8]?
    /// How many input bytes the decoded ContentInfo spans (0 when rejected). Bytes after it are not looked at.
    public var consumed: Int
    /// OpenSSL's error queue after a rejection, oldest (innermost) first.
    public var errors: [OpenSSLDecodeError]

    /// OID of PKCS#7/CMS SignedData.
    package static let signedDataOID = "1.2.840.113549.1.7.2"

    /// Whether the decoded ContentInfo holds SignedData.
    public var isSignedData: Bool { contentType == Self.signedDataOID }

    /// The ASN.1 field names OpenSSL's errors name, innermost first (e.g. `["signerInfos", "d.signedData"]`).
    public var failedFields: [String] { errors.compactMap(\.field) }

    /// One line for messages: the verdict, the content size, or the errors.
    public var description: String {
        guard accepted else { return "rejected: " + errors.map(\.description).joined(separator: " ← ") }
        let content = content.map { "\($0.count) content bytes" } ?? "no content"
        return "accepted \(contentType ?? "?") (eContentType \(encapsulatedContentType ?? "-")), \(content), "
            + "\(consumed) bytes consumed"
    }
}

/// OpenSSL's CMS decoder as a test oracle. It decodes only; it verifies nothing.
public enum OpenSSLCMSOracle {
    /// Decodes `bytes` with `d2i_CMS_ContentInfo` and reports the verdict, the content types, the eContent and, on
    /// rejection, the error queue. Never throws; leaves the calling thread's error queue empty.
    public static func decode(_ bytes: [UInt8]) -> OpenSSLCMSVerdict {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        var verdict = OpenSSLCMSVerdict(
            accepted: false, contentType: nil, encapsulatedContentType: nil, content: nil,
            consumed: 0, errors: [])
        var consumed = 0
        let decoded: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            let contentInfo = d2i_CMS_ContentInfo(nil, &cursor, buffer.count)
            if contentInfo != nil, let cursor { consumed = cursor - base }
            return contentInfo
        }
        guard let contentInfo = decoded else {
            verdict.errors = drainErrors()
            return verdict
        }
        defer { CMS_ContentInfo_free(contentInfo) }
        verdict.accepted = true
        verdict.consumed = consumed
        verdict.contentType = dotted(CMS_get0_type(contentInfo))
        guard verdict.isSignedData else { return verdict }
        verdict.encapsulatedContentType = dotted(CMS_get0_eContentType(contentInfo))
        if let octets = rcpt_cms_signed_econtent(contentInfo) {
            let length = Int(ASN1_STRING_length(octets))
            if length > 0, let data = ASN1_STRING_get0_data(octets) {
                verdict.content = Array(UnsafeBufferPointer(start: data, count: length))
            } else {
                verdict.content = []
            }
        }
        return verdict
    }

    /// An OBJECT IDENTIFIER in dotted form (never a name).
    static func dotted(_ object: OpaquePointer?) -> String? {
        guard let object else { return nil }
        // Asked with no buffer, OBJ_obj2txt returns the full length; a short buffer would truncate silently.
        let needed = OBJ_obj2txt(nil, 0, object, 1)
        guard needed > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(needed) + 1)
        let length = buffer.withUnsafeMutableBufferPointer { pointer in
            OBJ_obj2txt(pointer.baseAddress, Int32(pointer.count), object, 1)
        }
        guard length == needed else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Empties the calling thread's error queue into values, oldest first.
    static func drainErrors() -> [OpenSSLDecodeError] {
        var errors: [OpenSSLDecodeError] = []
        while true {
            var data: UnsafePointer<CChar>?
            var flags: Int32 = 0
            let code = ERR_get_error_all(nil, nil, nil, &data, &flags)
            if code == 0 { break }
            let library = ERR_lib_error_string(code).map { String(cString: $0) } ?? "unknown library"
            let reason = ERR_reason_error_string(code).map { String(cString: $0) } ?? "reason \(code & 0x7FFFFF)"
            let text = rcpt_err_data_is_string(flags) != 0 ? data.map { String(cString: $0) } ?? "" : ""
            errors.append(OpenSSLDecodeError(library: library, reason: reason, data: text))
        }
        return errors
    }
}

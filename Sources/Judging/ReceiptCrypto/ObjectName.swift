import COpenSSL

/// Text forms of ASN.1 object identifiers (`ASN1_OBJECT`).
enum ObjectName {
    /// Names for OIDs OpenSSL does not know but receipts commonly carry.
    static let knownNames: [String: String] = [
        "1.2.840.113635.100.6.11.1": "Apple Mac App Store receipt signing (leaf marker)",
        "1.2.840.113635.100.6.2.1": "Apple WWDR intermediate marker",
    ]

    /// The OID in dotted decimal, or nil when OpenSSL cannot render it.
    static func dotted(_ object: OpaquePointer?) -> String? {
        guard let object else {
            return nil
        }
        let needed = OBJ_obj2txt(nil, 0, object, 1)
        guard needed > 0 else {
            return nil
        }
        var buffer = [CChar](repeating: 0, count: Int(needed) + 1)
        let written = buffer.withUnsafeMutableBufferPointer { pointer in
            OBJ_obj2txt(pointer.baseAddress, Int32(pointer.count), object, 1)
        }
        guard written == needed else {
            return nil
        }
        return String(decoding: buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// OpenSSL's long name for the object, else the name from `knownNames`, else the dotted OID itself.
    static func longName(_ object: OpaquePointer?, dotted: String) -> String {
        if let object {
            let nid = OBJ_obj2nid(object)
            if nid != NID_undef, let name = OBJ_nid2ln(nid) {
                return String(cString: name)
            }
        }
        return knownNames[dotted] ?? dotted
    }
}

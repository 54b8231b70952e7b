/// OpenSSL's error queue in words: each entry's reason turned into a short sentence a person can act on, with the
/// raw entries kept in brackets (`[OpenSSL: …]`) for whoever wants them; text outputs show them under `-v` only.
package enum OpenSSLErrorText {
    /// The marker that starts the raw part of a message.
    package static let rawMarker = " [OpenSSL: "

    /// `message`, then what the errors mean, then the raw entries; just `message` when there are none.
    static func annotate(_ message: String, _ errors: [String]) -> String {
        guard !errors.isEmpty else { return message }
        return "\(message): \(explain(errors))\(rawMarker)\(errors.joined(separator: "; "))]"
    }

    /// One sentence for the entries, oldest first, each reason said once.
    static func explain(_ errors: [String]) -> String {
        var sentences: [String] = []
        for error in errors {
            let reason = error.split(separator: ":", omittingEmptySubsequences: false).last.map(String.init) ?? error
            guard let sentence = sentence(for: reason.trimmingCharacters()) else { continue }
            if !sentences.contains(sentence) { sentences.append(sentence) }
        }
        return sentences.isEmpty ? "OpenSSL gave no reason" : sentences.joined(separator: "; ")
    }

    /// What a reason string means; nil for reasons that only say another one follows.
    static func sentence(for reason: String) -> String? {
        switch reason {
        case "nested asn1 error", "asn1 lib", "EVP lib", "RSA lib", "bad asn1 object header": return nil
        case "header too long", "too long": return "an ASN.1 length runs past the end of the data"
        case "wrong tag": return "an element has another ASN.1 type than expected"
        case "bad signature", "signature failure": return "the signature does not match"
        case "data too large for modulus", "data too large": return "the signature is larger than the key's modulus"
        case "wrong signature length", "invalid signature length":
            return "the signature has the wrong length for the key"
        case "padding check failed", "block type is not 01", "first octet invalid", "invalid padding":
            return "the signature's PKCS#1 padding is wrong (made with another key, or altered)"
        case "bad length": return "a length is wrong"
        case "unsupported algorithm", "unknown signature algorithm", "unknown message digest algorithm":
            return "the algorithm is not supported"
        case "no start line": return "no PEM block was found"
        case "bad base64 decode": return "the PEM body is not valid base64"
        case "expecting an rsa key": return "the key is not an RSA key"
        case "invalid digest": return "the digest does not fit the key"
        default: return reason
        }
    }
}

extension String {
    /// The string without leading and trailing spaces.
    fileprivate func trimmingCharacters() -> String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}

import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJWS

/// Signs compact JWS the way Apple does (ES256, raw r ‖ s, the chain in x5c), with a TEST-ONLY key: for tests,
/// `rcpt build` of a JWS, and mutations that must get past the signature to reach a validator's parser.
public struct JWSSigner: Sendable {
    package var key: PrivateKey
    /// The certificates x5c carries, leaf first.
    public var chain: [Certificate]

    package init(key: PrivateKey, chain: [Certificate]) {
        self.key = key
        self.chain = chain
    }

    /// The JWS chain of a `.jws`-shaped authority: leaf, intermediate, root in x5c, signed with the leaf's key.
    package init(authority: TestCertificateAuthority) {
        self.init(key: authority.leafKey, chain: authority.embeddedChain)
    }

    /// `{"alg":"ES256","x5c":[…]}`: Apple's header members, in Apple's order.
    package func header() -> [UInt8] {
        let certificates = chain.map {
            "\"" + Base64Codec.encode($0.derEncoded, alphabet: .standard, padded: true) + "\""
        }
        .joined(separator: ",")
        return Array("{\"alg\":\"ES256\",\"x5c\":[\(certificates)]}".utf8)
    }

    /// A compact JWS of `payload` under `header` (Apple's header by default): base64url parts, raw signature.
    package func sign(payload: [UInt8], header: [UInt8]? = nil) throws(CryptoError) -> String {
        let token = try sign(
            encodedHeader: Base64URL.encode(header ?? self.header()).utf8,
            encodedPayload: Base64URL.encode(payload).utf8)
        return String(decoding: token, as: UTF8.self)
    }

    /// A compact JWS of a header and a payload already encoded, each kept to the byte: what a fuzzer's mutator signs
    /// when it edited one part and left the other as it stands.
    package func sign(
        encodedHeader: some Collection<UInt8>, encodedPayload: some Collection<UInt8>
    ) throws(CryptoError) -> [UInt8] {
        var token: [UInt8] = []
        token.reserveCapacity(encodedHeader.count + encodedPayload.count + 90)
        token += encodedHeader
        token.append(UInt8(ascii: "."))
        token += encodedPayload
        let signature = try signRaw(token)
        token.append(UInt8(ascii: "."))
        token += Base64URL.encode(signature).utf8
        return token
    }

    /// The raw ES256 signature (r ‖ s) of `message`, always low S. OpenSSL's nonce is random and it does not
    /// normalise s, so half its signatures were high S: a suite's baseline then was, run by run, and a validator
    /// that insists on low S (as Bitcoin's do) passed one run and failed the next (a CI user's trial). Only an entry
    /// that makes the twin (`high-s-twin`) has a high S.
    package func signRaw(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        let der = try Signer.sign([message[...]], digest: .sha256, key: key)
        guard let raw = ECDSASignature.raw(fromDER: der) else {
            throw CryptoError(.signingFailed, message: "the key did not give an ECDSA P-256 signature")
        }
        return ECDSASignature.isHighS(raw) ? ECDSASignature.negatingS(raw) : raw
    }
}

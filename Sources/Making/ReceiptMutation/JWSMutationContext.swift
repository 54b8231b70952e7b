import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptSigning
import ReceiptValidation

/// What every JWS mutation starts from: the input token's payload with the JWS it carries re-signed by the
/// TEST-ONLY CA (so the baseline is valid under `--root`), Apple's header shape with the test chain in x5c, the
/// signers of the test CA and of the foreign one, and the edits mutations make to JSON text.
public struct JWSMutationContext: Sendable {
    /// The baseline header: `{"alg":"ES256","x5c":[leaf, intermediate, root]}`.
    public let header: [UInt8]
    /// The baseline payload: the input's, its nested JWS re-signed.
    public let payload: [UInt8]
    public let signer: JWSSigner
    public let foreign: JWSSigner
    public let authority: TestCertificateAuthority
    /// The device the baseline's `deviceVerification` is computed for (the kit's, when it is a UUID and the payload
    /// carries one); empty otherwise.
    package let deviceID: [UInt8]

    /// The baseline of `input` (a compact JWS, a notification body or an API response: its first token).
    public static func baseline(of input: [UInt8], kit: MutationKit) throws(MutationError) -> JWSMutationContext {
        guard kit.authority.leaf.keyAlgorithm == .ec, kit.foreign.leaf.keyAlgorithm == .ec else {
            throw MutationError(
                .caNotJWS, "a JWS is re-signed with an EC chain: make the CA with `rcpt ca init --shape jws`")
        }
        let token: JWSToken
        switch JWSInput.read(input) {
        case .failure(let error): throw MutationError(.inputUnreadable, error.message)
        case .success(let read):
            guard let first = read.tokens.first else { throw MutationError(.inputUnreadable, "no JWS in the input") }
            token = first.token
        }
        let signer = JWSSigner(authority: kit.authority)
        var payload: [UInt8]
        do {
            payload = try resigningNested(token.payloadBytes, signer: signer, depth: 0)
        } catch {
            throw MutationError(.signingFailed, error.message)
        }
        var deviceID: [UInt8] = []
        if let bound = issued(payload, to: kit.deviceID) {
            payload = bound
            deviceID = kit.deviceID
        }
        return JWSMutationContext(
            header: signer.header(), payload: payload, signer: signer,
            foreign: JWSSigner(authority: kit.foreign), authority: kit.authority, deviceID: deviceID)
    }

    /// `payload` with its `deviceVerification` computed for `device` from its own nonce, as StoreKit issues a token
    /// to a device; nil when the payload carries no device verification or `device` is not a UUID.
    static func issued(_ payload: [UInt8], to device: [UInt8]) -> [UInt8]? {
        guard value(of: "deviceVerification", in: payload) != nil,
            let nonce = string(of: "deviceVerificationNonce", in: payload),
            let verification = Expectations.deviceVerification(nonce: nonce, deviceID: device)
        else { return nil }
        return setting("deviceVerification", to: "\"\(Base64.encode(verification))\"", in: payload)
    }

    /// Where Apple's verifier reads the baseline's app, environment and signing time (its kind's binding).
    package var binding: JWSBinding { JWSBinding.of(try? JSONDocument.read(payload), member: nil) }

    /// The app's Apple id a Production suite binds to (Apple's verifier is configured for Production only with
    /// one): the baseline's appAppleId, or for a kind that carries none (a transaction, renewal info) a TEST-ONLY id
    /// that the notifications the catalogue makes around it carry. Nil outside Production.
    package var appAppleID: String? {
        let binding = self.binding
        guard binding.environment?.text == ReceiptEnvironment.production.rawValue else { return nil }
        return binding.appAppleID?.text ?? Self.testAppAppleID
    }

    /// The app Apple id of the notifications made around a Production token that carries none (TEST-ONLY).
    package static let testAppAppleID = "1234567890"

    /// What `rcpt verify` is told of the baseline, as a suite's validators are, and as Apple's verifier is always
    /// configured: its bundleId, its environment, an app transaction's applicationVersion, the device its
    /// deviceVerification is computed for, and in Production the app's Apple id.
    package var expectations: Expectations {
        let kind = JWSPayloadKind.of(try? JSONDocument.read(payload), member: nil)
        return Expectations(
            bundleID: Self.string(of: "bundleId", in: payload),
            appVersion: kind == .appTransaction ? Self.string(of: "applicationVersion", in: payload) : nil,
            deviceID: deviceID.isEmpty ? nil : deviceID, appAppleID: appAppleID,
            environment: binding.environment.flatMap { ReceiptEnvironment(rawValue: $0.text) })
    }

    /// `payload` with every JWS in its strings replaced by the same token re-signed by `signer`, to a bounded depth;
    /// each claim of `stating` that a payload states (its binding's object: a notification's `data`) set to its JSON
    /// text on the way, in this payload and every token it carries.
    static func resigningNested(
        _ payload: [UInt8], stating values: [String: String] = [:], signer: JWSSigner, depth: Int
    ) throws(CryptoError) -> [UInt8] {
        var result = payload
        for (name, value) in values.sorted(by: { $0.key < $1.key }) where Self.value(of: name, in: result) != nil {
            result = setting(name, to: value, in: result)
        }
        guard depth < JWSReader.maximumNesting, let document = try? JSONDocument.read(result) else { return result }
        for entry in document.nodes.reversed() where entry.kind == .string {
            let range = entry.start + 1..<entry.end - 1
            let text = Array(result[range])
            guard JWSReader.looksLikeCompactJWS(text), case .success(let nested) = JWSReader.read(text[...]) else {
                continue
            }
            let inner = try resigningNested(nested.payloadBytes, stating: values, signer: signer, depth: depth + 1)
            result.replaceSubrange(range, with: Array(try signer.sign(payload: inner).utf8))
        }
        return result
    }

    // MARK: - Tokens

    /// A token of `header` and `payload` (the baseline's by default) signed by `signer` (the test CA's).
    public func signed(header: [UInt8]? = nil, payload: [UInt8]? = nil, by signer: JWSSigner? = nil)
        throws(CryptoError) -> String
    {
        try (signer ?? self.signer).sign(payload: payload ?? self.payload, header: header ?? self.header)
    }

    /// A notification body (`{"signedPayload":…}`, what Apple posts to a server) holding `payload` signed: how a
    /// notification reaches the server that verifies it, so its kind is never guessed from where it lies.
    public func notificationBody(payload: [UInt8]) throws(CryptoError) -> String {
        #"{"signedPayload":"\#(try signed(payload: payload))"}"#
    }

    /// The header of `signer`'s chain with `members` (JSON text such as `"kid":"x"`) added at the end.
    public func header(adding members: String, chain: [Certificate]? = nil) -> [UInt8] {
        var base = chain.map { JWSSigner(key: signer.key, chain: $0).header() } ?? header
        guard !members.isEmpty, base.last == UInt8(ascii: "}") else { return base }
        base.removeLast()
        return base + Array(",\(members)}".utf8)
    }

    /// The three parts of a compact token.
    package static func parts(_ token: String) -> [String] {
        token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    // MARK: - JSON edits

    /// The object a claim lives in: the payload's top level, or a notification's `data` when it is there.
    static func claimObject(_ document: JSONDocument, _ name: String) -> Int {
        if document.member(name, of: document.root) != nil { return document.root }
        if let data = document.member("data", of: document.root), document.nodes[data].kind == .object,
            document.member(name, of: data) != nil
        {
            return data
        }
        return document.root
    }

    /// `json` with the value of claim `name` replaced by the JSON text `value` (added when absent).
    public static func setting(_ name: String, to value: String, in json: [UInt8]) -> [UInt8] {
        guard let document = try? JSONDocument.read(json) else { return json }
        let object = claimObject(document, name)
        if let node = document.member(name, of: object) {
            var result = json
            result.replaceSubrange(document.nodes[node].start..<document.nodes[node].end, with: Array(value.utf8))
            return result
        }
        return appending(name, value, to: object, in: document)
    }

    /// `json` with a second member `name` (JSON text `value`) after the others of the claim's object; not
    /// applicable to a payload without the claim.
    public static func duplicating(_ name: String, as value: String, in json: [UInt8]) throws(MutationError) -> [UInt8]
    {
        guard let document = try? JSONDocument.read(json), document.member(name, of: claimObject(document, name)) != nil
        else { throw MutationError(.notApplicable, "the payload has no \(name) to duplicate") }
        return appending(name, value, to: claimObject(document, name), in: document)
    }

    /// `json` without the member `name` (wherever the claim lives).
    public static func removing(_ name: String, from json: [UInt8]) -> [UInt8] {
        guard let document = try? JSONDocument.read(json) else { return json }
        let object = claimObject(document, name)
        guard let node = document.member(name, of: object), let key = document.nodes[node].keyRange else { return json }
        var start = key.lowerBound - 1
        var end = document.nodes[node].end
        // Take the comma after it, or else the one before it.
        var after = end
        while after < json.count, [0x20, 0x0A, 0x0D, 0x09].contains(json[after]) { after += 1 }
        if after < json.count, json[after] == UInt8(ascii: ",") {
            end = after + 1
        } else {
            var before = start - 1
            while before > 0, [0x20, 0x0A, 0x0D, 0x09].contains(json[before]) { before -= 1 }
            if before >= 0, json[before] == UInt8(ascii: ",") { start = before }
        }
        var result = json
        result.removeSubrange(start..<end)
        return result
    }

    static func appending(_ name: String, _ value: String, to object: Int, in document: JSONDocument) -> [UInt8] {
        var result = document.bytes
        let close = document.nodes[object].end - 1
        let separator = document.children(of: object).isEmpty ? "" : ","
        result.insert(contentsOf: Array("\(separator)\"\(name)\":\(value)".utf8), at: close)
        return result
    }

    /// A string claim's value, decoded, when present.
    package static func string(of name: String, in json: [UInt8]) -> String? {
        value(of: name, in: json).flatMap { try? JSONDocument.read(Array($0.utf8)) }.flatMap { $0.string($0.root) }
    }

    /// A claim's value as JSON text (`"com.example"`, `1717243200000`), when present.
    public static func value(of name: String, in json: [UInt8]) -> String? {
        guard let document = try? JSONDocument.read(json) else { return nil }
        let object = claimObject(document, name)
        return document.member(name, of: object).map { document.text($0) }
    }
}

/// The kinds of document rcpt reads: an App Store receipt (PKCS#7 SignedData, in any of its wrappings) or Apple's
/// JWS (a token, or a document of them). Every output names a document by it (`receipt`, `jws`).
public enum DocumentKind: String, Sendable, Hashable, CaseIterable {
    case receipt
    case jws
}

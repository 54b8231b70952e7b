extension JWSInspector {
    /// Every check of one token, in the order they run: a check reads what those before it decided (the signature
    /// needs the certificates; the chain, the evaluation time). Adding a check is one type conforming to
    /// `TokenCheck`, in a file of its own, and one line here.
    static let tokenChecks: [any TokenCheck] = [
        TokenCertificates(),  // x5c: standard base64 of DER certificates
        TokenLeafFirst(),  // x5c leaf first, not a CA before the leaf
        TokenSignature(),  // ES256, r ‖ s, over header.payload with the leaf's P-256 key
        TokenSigningTime(),  // the signing claim, and when the chain is evaluated
        TokenChain(),  // to a trusted anchor at that time, under Apple's policy
        TokenCarrierSigner(),  // a nested token signed by its carrier's signer
        TokenBinding(),  // the app, device and environment expected, where the kind carries them
        TokenKind(),  // the kind Apple's documents hold in the token's position
        TokenQuantity(),  // a transaction's units: a whole number Apple sells
        TokenPurchaseFacts(),  // what the payload states of the purchase at the status time
    ]
}

import ReceiptJWS

/// What the structure-aware JWS mutator draws names and values from.
extension JWSStructureMutator {
    /// Every claim Apple defines (`AppleClaims`), the JOSE header members, and the members that hold tokens.
    static let names: [String] =
        AppleClaims.strings.union(AppleClaims.numbers).union(AppleClaims.booleans).sorted()
        + [
            "alg", "x5c", "kid", "typ", "crit", "jku", "x5u", "jwk", "cty", "data", "summary", "signedPayload",
            "signedTransactions", "signedTransactionInfo", "signedRenewalInfo", "externalPurchaseToken", "appData",
        ]

    /// What each member is compared with: Apple's enumeration claims, and the JOSE header members' values (RFC 7515,
    /// RFC 7518's algorithms, RFC 7797's `b64`).
    static let memberValues: [String: [String]] = AppleClaims.enumerations.merging([
        "alg": ["ES256", "none", "None", "HS256", "RS256", "ES384", "ES512", "PS256", "EdDSA", "ES256K"].map {
            "\"\($0)\""
        },
        "typ": ["\"JWT\"", "\"JOSE\"", "\"jwt\""],
        "cty": ["\"JWT\""],
    ]) { apple, _ in apple }

    /// The JOSE header members (RFC 7515 §4.1, and those of JWE and RFC 7797 a reader may meet).
    static let headerNames = [
        "alg", "x5c", "kid", "typ", "cty", "crit", "jku", "x5u", "jwk", "x5t", "x5t#S256", "b64",
        "zip", "enc",
    ]

    /// Numbers at the edges Apple's claims have: epoch milliseconds (now, year 9999, before 1970), 2^53 and one
    /// past, 2^64, `-0`, exponents, fractions, leading zeros.
    static let numbers = [
        "0", "-0", "1", "-1", "2", "5", "01", "1.0", "0.5", "1e3", "1E+3", "-1e-3", "1e400", "9007199254740992",
        "9007199254740993", "-9007199254740993", "18446744073709551616", "1646387016000", "1646387016000.5",
        "253402300799999", "253402300800000", "-62135769600000", "4102444800000", "99999999999999999999999",
    ]

    /// String contents (JSON-escaped) Apple's claims take and their near misses.
    static let strings = [
        "", "Production", "Sandbox", "Xcode", "LocalTesting", "production", "Auto-Renewable Subscription",
        "Non-Consumable", "Consumable", "PURCHASED", "FAMILY_SHARED", "ES256", "none", "HS256", "com.example.rcpt.fuzz",
        "COM.EXAMPLE.RCPT.FUZZ", "com.example.rcpt.fuzz\\u0000", " com.example.rcpt.fuzz", "DID_RENEW", "REFUND",
        "SUBSCRIBED", "1000000000000001", "2.0", "\\ud83d\\ude00", "\\ud800", "\\udc00x", "\\u0000", "a\\\"b", "\\\\",
        "\\/", "é", "\\u00e9", "eyJ", "x.y.z",
    ]

    /// Escapes inserted into a string: valid, lone surrogates, NUL, and an invalid one.
    static let escapes = ["\\u0000", "\\ud800", "\\udfff", "\\ud83d\\ude00", "\\n", "\\\"", "\\\\", "\\u00e9", "\\x"]
}

import ReceiptCrypto
import Testing

/// TEST-ONLY keys generated with the openssl CLI; they protect nothing.
enum PrivateKeyFixtures {
    /// `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256`
    static let ecP256 = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQge1LnXMybI3jBYQjZ
        2H+7TRwG8mRia7FvD+ET1ReWvb2hRANCAAR8i13pZ/9IbJdPYpfjBYl+U0iRG/PN
        IaqHWQ2xILbJdTPYQx2QlMV60hfuMyZTomCmRcezgXg9tacMQPBqO1em
        -----END PRIVATE KEY-----

        """

    /// `openssl genpkey -algorithm ED25519`
    static let ed25519 = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VwBCIEINA64sW2+r9+4xls9sKfBVfy21wuvcKvkZ+z+hQq4t9z
        -----END PRIVATE KEY-----

        """

    /// `openssl genrsa -traditional 512`
    static let traditionalRSA512 = """
        -----BEGIN RSA PRIVATE KEY-----
        MIIBOgIBAAJBAL1jX0fqanEZ89W6m8RUJI1vGfHZOywpiAy0LsbSL/bJbjUDS7Tp
        XiCgxNUblp+WGFKl78lpPVh7lV3P5nEVo7MCAwEAAQJBAJUw8f8qF/3O7vnATjLk
        AgN0sSCG+wk4ElfHnU28iFJEUro3Sa4DGXyuLviR3/IH4b4cL0TzhsQRRMbAPxjU
        n3kCIQDjLoCsMAgri+tsnm+8kXZiZ+KR702+08B33/4svCP5zQIhANVpkGdZ2sdT
        lATt6zc7yfT4ogIG8ITfXWhRPavB/JN/AiA/tAV+wwU3eMeuMIsyfDOPCoRc2Zaa
        YPRCaPvz/Vm1LQIgJt8Id1qtd7robhFr026ndWBIGfhrnLgWimapxfwaZj8CIG1f
        4umm3r0gCkHJ72Kp16NL/Lkj+3BBWuMJ56aMTaot
        -----END RSA PRIVATE KEY-----

        """

    /// `openssl pkey -in traditionalRSA512.pem`: the same key as PKCS#8.
    static let traditionalRSA512AsPKCS8 = """
        -----BEGIN PRIVATE KEY-----
        MIIBVAIBADANBgkqhkiG9w0BAQEFAASCAT4wggE6AgEAAkEAvWNfR+pqcRnz1bqb
        xFQkjW8Z8dk7LCmIDLQuxtIv9sluNQNLtOleIKDE1RuWn5YYUqXvyWk9WHuVXc/m
        cRWjswIDAQABAkEAlTDx/yoX/c7u+cBOMuQCA3SxIIb7CTgSV8edTbyIUkRSujdJ
        rgMZfK4u+JHf8gfhvhwvRPOGxBFExsA/GNSfeQIhAOMugKwwCCuL62yeb7yRdmJn
        4pHvTb7TwHff/iy8I/nNAiEA1WmQZ1nax1OUBO3rNzvJ9PiiAgbwhN9daFE9q8H8
        k38CID+0BX7DBTd4x64wizJ8M48KhFzZlppg9EJo+/P9WbUtAiAm3wh3Wq13uuhu
        EWvTbqd1YEgZ+GucuBaKZqnF/BpmPwIgbV/i6abevSAKQcnvYqnXo0v8uSP7cEFa
        4wnnpoxNqi0=
        -----END PRIVATE KEY-----

        """

    /// `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:512 -aes-128-cbc -pass pass:rcpt-test`
    static let encryptedRSA512 = """
        -----BEGIN ENCRYPTED PRIVATE KEY-----
        MIIBvTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQIAMhAl7V8OUACAggA
        MAwGCCqGSIb3DQIJBQAwHQYJYIZIAWUDBAECBBC1zpYNKrYleGjb0Qi5WE24BIIB
        YBGx1VIcH9zK06o4lBOVWlNIASyOesG24xprRiwZMJYEwLBYm1Ha5RX+qifkTj90
        nscCs01plNQKcFytIHoT9W1e9k8WzppgQ3LC56hf5YHFjAjBGvtvqs0dxXuZlIxW
        0HMVUQ+7Ab3QOXJHXbByBZ+sE0FVDQo9CzwQSQsjGjiwsOpknyMe98RQbWzxq8bA
        srV7bAdxGkLdc9bakxpuL6+k85+7uVqT8qOsZsyym7FOdqRO8ZDya/wb6Hk0jzuX
        V8f3C/xyod3rikn79aeLCjMyO07KoA690BY+ft9bnhhMMWSKk3GNiYIv7r3mvBaw
        KKohFtlih9gBehNEV5+WmmPP3Fhox10oQIcWZhwxKXRruCwHbOKtOWTYiNAPDVv5
        zoJRCXAH4cfOf4m7gMioYtvF5liUYnMoX0QURjSdeehBrLm1PUFAEr2D8zw2x3up
        HeihQR2lEok504ZIGM0BXYo=
        -----END ENCRYPTED PRIVATE KEY-----

        """
}

@Suite struct PrivateKeyTests {
    @Test func generatedKeyRoundTripsThroughPKCS8PEM() throws {
        let pki = try TestPKI.shared.get()
        let pem = pki.leafKey.pemEncoded
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(pem.hasSuffix("-----END PRIVATE KEY-----\n"))
        let reloaded = try PrivateKey(pemEncoded: Array(pem.utf8))
        #expect(reloaded.pemEncoded == pem)
        #expect(reloaded.publicKeyDescription == "RSA 2048")
        // The reloaded key still pairs with the original key's certificate.
        let message: [ArraySlice<UInt8>] = [Array("payload".utf8)[...]]
        let signature = try Signer.sign(message, digest: .sha256, key: reloaded)
        #expect(
            SignatureVerifier.verify(signature: signature[...], over: message, digest: .sha256, certificate: pki.leaf)
                == .valid)
    }

    @Test func generatedKeysAreDistinct() throws {
        let pki = try TestPKI.shared.get()
        let pems = Set([pki.rootKey, pki.intermediateKey, pki.leafKey, pki.otherKey].map(\.pemEncoded))
        #expect(pems.count == 4)
    }

    @Test func convertsTraditionalRSAKeyToSamePKCS8AsOpenSSLCLI() throws {
        let key = try PrivateKey(pemEncoded: Array(PrivateKeyFixtures.traditionalRSA512.utf8))
        #expect(key.pemEncoded == PrivateKeyFixtures.traditionalRSA512AsPKCS8)
        #expect(key.publicKeyDescription == "RSA 512")
    }

    @Test func decodesECAndEd25519Keys() throws {
        let ec = try PrivateKey(pemEncoded: Array(PrivateKeyFixtures.ecP256.utf8))
        #expect(ec.publicKeyDescription == "EC 256 (prime256v1)")
        #expect(ec.pemEncoded == PrivateKeyFixtures.ecP256)
        let ed = try PrivateKey(pemEncoded: Array(PrivateKeyFixtures.ed25519.utf8))
        #expect(ed.publicKeyDescription == "Ed25519")
        #expect(ed.pemEncoded == PrivateKeyFixtures.ed25519)
    }

    static let garbageKeys: [(String, [UInt8])] = [
        ("empty", []),
        ("text", Array("not a key".utf8)),
        ("truncated PEM", Array(PrivateKeyFixtures.traditionalRSA512.utf8.prefix(120))),
        ("certificate instead of key", Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8)),
        ("bad base64 in key block", Array("-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n".utf8)),
        ("encrypted key (no passphrase prompt)", Array(PrivateKeyFixtures.encryptedRSA512.utf8)),
        ("DER bytes", [0x30, 0x03, 0x02, 0x01, 0x00]),
    ]

    @Test(arguments: garbageKeys)
    func rejectsGarbageKeyWithCryptoError(label: String, contents: [UInt8]) {
        let error = #expect(throws: CryptoError.self) {
            try PrivateKey(pemEncoded: contents)
        }
        #expect(error?.code == "key-decode-failed")
    }

    @Test(arguments: [-1, 0, 256, 100_000])
    func rejectsUnreasonableRSAKeySize(bits: Int) {
        let error = #expect(throws: CryptoError.self) {
            try PrivateKey.generateRSA(bits: bits)
        }
        #expect(error?.code == "key-generation-failed")
    }
}

import ReceiptCrypto

/// A TEST-ONLY 1024-bit RSA key, fixed so that the `leaf-key-1024` mutation is deterministic. It is weak on
/// purpose, not secret, and signs nothing but mutated test receipts: never trust it anywhere.
enum WeakTestKey {
    static let pem = """
        -----BEGIN PRIVATE KEY-----
        MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBALR3LEmULIFcXmoS
        //lS8VpcRGMYtxk/y+cu83vM4RuogYXo9YXr4jYl1qzMMp/5HGzNZVyWAkx3V4xx
        Xu1nWfbpRV50AeTcN0Mm8hLGk6GVmUTlVVz2bKT4t0RO2A/1wJKiflwE0HwI8OQh
        0u1k/JeOzfyDAfCTVRdPhJXJqHbbAgMBAAECgYBZaHWLmpqWGII6QWGKT7p9jxre
        kb8dBktqJQvCeRXJ0ykgg/MoP15af1KlV6F5Oj0H9pbSUQuggLviO8TRD5Q09+oh
        uUfj1CMDEW6jnohlKjZXt2oY4cYJGx19eUnmBb6EQJB80/PORGlXIp+bHLy4h0gR
        9Vb0eah0r8H6A80HwQJBAN8uVR+IwwbbHX3j2u7IVPE52Ptw+BeKOBOH499NNh1x
        PTPzrHbdI+g5VGBAMgDsyL2kypEj7puTZndGzJuzhjsCQQDPANAkDs9AZoFyk4su
        HuyWyKnlKbg31mD/FrGZlE1MuC5bGcsPUkdzU1B93RWaGmD6lMC2i5vcAwTB1BrE
        /afhAkANLBLiFZRNJ0mKUJRvW2uIAT4JORWrbgD5Rh/w4gG7ox9VnaAkM9EWt6t/
        MsrAuzjt2HgMMO64R+7YQ1l4JxRZAkEAkSopzM+R6cC40KfFd9953Lf15N4f8RBm
        zxyUCXalysJyx7JL43+42Zg4nztWdc4/6ho9FwbKkzyOrnrXFwQnIQJANqx8iaD7
        Kd15DDxWi5WWnMZI8TeS23dBKFpY/00c4tyuIT4JWYafKcT6ikvy4eY/jo7UmKbx
        aSQ7NYfY8aDAoQ==
        -----END PRIVATE KEY-----
        """

    static func load() throws -> PrivateKey { try PrivateKey(pemEncoded: Array(pem.utf8)) }
}

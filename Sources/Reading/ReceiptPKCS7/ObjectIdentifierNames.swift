/// Names for the object identifiers that occur in receipts' containers and certificates.
public enum ObjectIdentifierNames {
    public static let signedData = "1.2.840.113549.1.7.2"
    public static let data = "1.2.840.113549.1.7.1"
    package static let contentTypeAttribute = "1.2.840.113549.1.9.3"
    public static let messageDigestAttribute = "1.2.840.113549.1.9.4"
    package static let signingTimeAttribute = "1.2.840.113549.1.9.5"

    /// The short name of `oid`, or `oid` itself when it has none here.
    public static func name(for oid: String) -> String { table[oid] ?? oid }

    /// Every named OID (used to generate fuzz dictionaries).
    public static var all: [(oid: String, name: String)] { table.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }

    private static let table: [String: String] = [
        "1.2.840.113549.1.7.1": "pkcs7-data",
        "1.2.840.113549.1.7.2": "pkcs7-signedData",
        "1.2.840.113549.1.7.3": "pkcs7-envelopedData",
        "1.2.840.113549.1.9.16.1.4": "id-ct-TSTInfo",
        "1.2.840.113549.1.1.1": "rsaEncryption",
        "1.2.840.113549.1.1.5": "sha1WithRSAEncryption",
        "1.2.840.113549.1.1.10": "rsassaPss",
        "1.2.840.113549.1.1.11": "sha256WithRSAEncryption",
        "1.2.840.113549.1.1.12": "sha384WithRSAEncryption",
        "1.2.840.113549.1.1.13": "sha512WithRSAEncryption",
        "1.2.840.10045.2.1": "id-ecPublicKey",
        "1.2.840.10045.4.3.2": "ecdsa-with-SHA256",
        "1.2.840.10045.4.3.3": "ecdsa-with-SHA384",
        "1.3.14.3.2.26": "sha1",
        "2.16.840.1.101.3.4.2.1": "sha256",
        "2.16.840.1.101.3.4.2.2": "sha384",
        "2.16.840.1.101.3.4.2.3": "sha512",
        "2.16.840.1.101.3.4.2.4": "sha224",
        "1.2.840.113549.1.9.3": "contentType",
        "1.2.840.113549.1.9.4": "messageDigest",
        "1.2.840.113549.1.9.5": "signingTime",
        "1.2.840.113549.1.9.15": "smimeCapabilities",
        "1.2.840.113549.1.9.1": "emailAddress",
        "2.5.4.3": "CN",
        "2.5.4.4": "SN",
        "2.5.4.5": "serialNumber",
        "2.5.4.6": "C",
        "2.5.4.7": "L",
        "2.5.4.8": "ST",
        "2.5.4.9": "street",
        "2.5.4.10": "O",
        "2.5.4.11": "OU",
        "2.5.4.12": "title",
        "2.5.4.42": "GN",
        "0.9.2342.19200300.100.1.1": "UID",
        "0.9.2342.19200300.100.1.25": "DC",
        "1.2.840.113635.100.6.11.1": "apple-receipt-signing-leaf-marker",
        "1.2.840.113635.100.6.2.1": "apple-wwdr-intermediate-marker",
    ]
}

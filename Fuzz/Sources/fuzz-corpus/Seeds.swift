import Foundation
import ReceiptASN1
import ReceiptBuilding
import ReceiptCrypto
import ReceiptModel
import ReceiptPKCS7
import ReceiptSigning

/// The harnesses and the largest input each is fuzzed with (`-max_len`): real receipts are 1.5–80 KB, and big
/// inputs slow fuzzing, so each limit holds the seeds that matter and little more. Written to
/// `Corpus/fuzz/<harness>.options`, which `scripts/fuzz.sh` and OSS-Fuzz read.
enum Harnesses {
    static let maximumLength: [(name: String, maxLen: Int)] = [
        ("attributes", 8192),
        ("in-app", 2048),
        ("ber", 4096),
        ("pkcs7", 10240),
        ("dump", 10240),
        ("dates", 128),
        ("differential", 10240),
        ("verify", 10240),
        ("jws", 24576),
        ("jws-verify", 24576),
        ("status", 24576),
    ]

    static func maxLen(_ harness: String) -> Int { maximumLength.first { $0.name == harness }?.maxLen ?? 4096 }

    /// The `.options` file of a harness.
    static func options(_ harness: String) -> String {
        "[libfuzzer]\nmax_len = \(maxLen(harness))\ndict = \(harness).dict\n"
    }
}

/// Every harness's seeds, named for what they are.
struct Seeds {
    let sources: SeedSources

    func all() -> [(harness: String, files: [(name: String, bytes: [UInt8])])] {
        let sets: [(String, [(name: String, bytes: [UInt8])])] = [
            ("attributes", attributes()),
            ("in-app", inApp()),
            ("ber", ber()),
            ("pkcs7", containers()),
            ("dump", containers() + wrappedInputs()),
            ("dates", dates()),
            ("differential", containers() + ber().filter { $0.name.hasPrefix("asn1-") }),
            ("verify", verify()),
        ]
        return sets.map { harness, files in
            let limit = Harnesses.maxLen(harness)
            return (harness, files.filter { $0.bytes.count <= limit })
        }
    }

    // MARK: - Payloads

    /// Synthetic payloads from the project's builder, plus shapes real receipts never have.
    var syntheticPayloads: [(name: String, bytes: [UInt8])] {
        let basics: [AttributeSpec] = [.utf8(2, "com.example.app"), .utf8(3, "1"), .ia5(12, "2024-01-01T00:00:00Z")]
        let oddRecord: AttributeSpec = .record(
            [
                .integer(1701, 1), .utf8(1702, "p"), .ia5(1704, "2020-10-16T14:29:30+0300"), .integer(1713, 2),
                .ia5(1712, ""), .integer(1702, 7), .utf8(1722, "undocumented"),
            ], sorted: false)
        let odd: [AttributeSpec] =
            basics + [
                .utf8(2, "com.example.duplicate"),  // duplicate documented type
                .integer(9999, -1),  // unknown type
                AttributeSpec(type: 17, value: [0x04, 0x00]),  // type 17 that is not a SET
                AttributeSpec(type: -5, version: -1, value: []),  // negative type, empty value
                .ia5(21, "2020-02-30T00:00:00Z"),  // impossible date
                .utf8(0, "Xcode\u{0}"),  // embedded NUL
                AttributeSpec(type: 3, value: [0x0C, 0x02, 0xC3, 0x28]),  // invalid UTF-8
                oddRecord,
            ]
        var payloads: [(name: String, bytes: [UInt8])] = [
            ("synthetic-0-records.der", SyntheticReceipt(records: 0, seed: 1).payload()),
            ("synthetic-1-record.der", SyntheticReceipt(records: 1, seed: 2).payload()),
            ("synthetic-3-records.der", SyntheticReceipt(records: 3, seed: 3).payload()),
            ("basics.der", PayloadBuilder.attributeSet(basics)),
            ("unsorted-with-oddities.der", PayloadBuilder.attributeSet(odd, sorted: false)),
            ("empty-set.der", PayloadBuilder.attributeSet([])),
        ]
        // The same attributes written the way BER allows: an indefinite-length SET and a constructed value.
        var ber = ASN1Writer()
        ber.appendIndefinite(.set) { writer in
            for spec in basics { writer.appendRaw(spec.encoded) }
            writer.appendConstructed(.sequence) { writer in
                writer.appendInteger(19)
                writer.appendInteger(1)
                writer.appendIndefinite(.octetString) { writer in
                    writer.appendOctetString([0x0C, 0x03])
                    writer.appendOctetString(Array("1.0".utf8))
                }
            }
        }
        payloads.append(("indefinite-set-constructed-value.ber", ber.bytes))
        // A payload that is a SEQUENCE, not a SET, and one with trailing bytes.
        var sequence = PayloadBuilder.attributeSet(basics)
        sequence[0] = 0x30
        payloads.append(("sequence-not-set.der", sequence))
        payloads.append(("trailing-bytes.der", PayloadBuilder.attributeSet(basics) + [0x05, 0x00]))
        return payloads
    }

    /// Payloads of the real receipts.
    var realPayloads: [(name: String, bytes: [UInt8])] {
        sources.receipts.compactMap { receipt in
            SeedSources.payload(of: receipt.bytes).map { ("real-\(receipt.name).payload", $0) }
        }
    }

    func attributes() -> [(name: String, bytes: [UInt8])] { syntheticPayloads + realPayloads }

    // MARK: - In-app records

    func inApp() -> [(name: String, bytes: [UInt8])] {
        var seeds: [(name: String, bytes: [UInt8])] = []
        for (name, payload) in syntheticPayloads + realPayloads {
            let base = name.split(separator: ".").first.map(String.init) ?? name
            for (index, record) in SeedSources.recordValues(of: payload).prefix(2).enumerated() {
                seeds.append(("\(base)-record-\(index)", record))
            }
        }
        seeds.append(("empty-record.der", PayloadBuilder.attributeSet([])))
        var indefinite = ASN1Writer()
        indefinite.appendIndefinite(.set) { writer in
            writer.appendRaw(AttributeSpec.integer(1701, 1).encoded)
            writer.appendRaw(AttributeSpec.utf8(1702, "com.example.product").encoded)
            writer.appendRaw(AttributeSpec.ia5(1708, "2024-01-01T00:00:00.123Z").encoded)
        }
        seeds.append(("indefinite-record.ber", indefinite.bytes))
        return unique(seeds)
    }

    // MARK: - BER/DER

    func ber() -> [(name: String, bytes: [UInt8])] {
        var seeds: [(name: String, bytes: [UInt8])] = []
        func element(_ body: (inout ASN1Writer) -> Void) -> [UInt8] {
            var writer = ASN1Writer()
            body(&writer)
            return writer.bytes
        }
        seeds.append(("asn1-integer.der", element { $0.appendInteger(-129) }))
        seeds.append(("asn1-oid.der", element { $0.appendObjectIdentifier(ObjectIdentifierNames.signedData) }))
        seeds.append(
            (
                "asn1-high-tag.der",
                element {
                    $0.appendPrimitive(
                        .context(1701, constructed: false),
                        content: [1])
                }
            ))
        seeds.append(("asn1-long-length.der", element { $0.appendOctetString([UInt8](repeating: 0x41, count: 300)) }))
        seeds.append(
            (
                "asn1-nested-indefinite.ber",
                element { writer in
                    writer.appendIndefinite(.sequence) { writer in
                        writer.appendIndefinite(.context(0, constructed: true)) { writer in
                            writer.appendIndefinite(.octetString) { writer in
                                writer.appendOctetString([1, 2])
                                writer.appendIndefinite(.octetString) { writer in writer.appendOctetString([3]) }
                            }
                        }
                        writer.appendNull()
                    }
                }
            ))
        seeds.append(
            (
                "asn1-two-elements.der",
                element { writer in
                    writer.appendBoolean(true)
                    writer.appendUTF8String("two")
                }
            ))
        seeds.append(("asn1-non-minimal.ber", [0x30, 0x81, 0x05, 0x1F, 0x02, 0x01, 0x05, 0x04, 0x82, 0x00, 0x00]))
        seeds += syntheticPayloads.prefix(2).map { ("payload-" + $0.name, $0.bytes) }
        seeds += sources.certificates.prefix(2).map { ("certificate-\($0.name).der", $0.bytes) }
        seeds += sources.receipts.filter { $0.bytes.count <= 2048 }.map { ("real-\($0.name)", $0.bytes) }
        return seeds
    }

    // MARK: - Containers

    /// Unsigned and TEST-ONLY-signed containers around synthetic payloads, and the real receipts.
    func containers() -> [(name: String, bytes: [UInt8])] {
        var seeds: [(name: String, bytes: [UInt8])] = []
        let small = SyntheticReceipt(records: 1, seed: 4).payload()
        for layout in ContainerLayout.allCases {
            seeds.append(("unsigned-1-record.\(layout.rawValue)", unsigned(small, layout: layout)))
        }
        seeds.append(("unsigned-empty-payload.der", unsigned([], layout: .der)))
        let variants: [(String, DigestAlgorithm, ContainerLayout, Bool)] = [
            ("signed-sha256.der", .sha256, .der, false),
            ("signed-sha1.der", .sha1, .der, false),
            ("signed-sha256-signed-attributes.der", .sha256, .der, true),
            ("signed-sha256.ber", .sha256, .ber, false),
        ]
        for (name, digest, layout, signedAttributes) in variants {
            if let bytes = try? sources.signer.sign(
                small, digest: digest, layout: layout,
                signedAttributes: signedAttributes)
            {
                seeds.append((name, bytes))
            }
        }
        for receipt in sources.receipts {
            seeds.append(("real-\(receipt.name)", receipt.bytes))
        }
        if let sandbox = sources.receipts.first(where: { $0.name == "kvitto-sandboxReceipt" }) {
            seeds.append(("real-kvitto-sandboxReceipt-cut-1500", Array(sandbox.bytes.prefix(1500))))
        }
        return seeds
    }

    /// A container with a dummy signature and no certificates (as `UnsignedReceipts.wrap` in the tests).
    func unsigned(_ payload: [UInt8], layout: ContainerLayout) -> [UInt8] {
        let builder = SignedDataBuilder(
            content: payload, certificates: [], signerIssuer: [0x30, 0x00],
            signerSerial: [0x01], digestAlgorithmOID: "2.16.840.1.101.3.4.2.1",
            layout: layout)
        return builder.build(digest: { _ in [] }, sign: { _ in [UInt8](repeating: 0, count: 16) })
    }

    /// The smallest real receipt wrapped as users paste it: base64, PEM, a verifyReceipt request body.
    func wrappedInputs() -> [(name: String, bytes: [UInt8])] {
        guard let receipt = sources.receipts.min(by: { $0.bytes.count < $1.bytes.count }) else { return [] }
        let base64 = Base64.encode(receipt.bytes)
        var lines: [String] = []
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        let pem = "-----BEGIN PKCS7-----\n" + lines.joined(separator: "\n") + "\n-----END PKCS7-----\n"
        let json = "{\"receipt-data\": \"\(base64)\", \"password\": \"\"}"
        return [
            ("wrapped-\(receipt.name).base64", Array(base64.utf8)),
            ("wrapped-\(receipt.name).pem", Array(pem.utf8)),
            ("wrapped-\(receipt.name).json", Array(json.utf8)),
        ]
    }

    // MARK: - Dates

    func dates() -> [(name: String, bytes: [UInt8])] {
        // One seed per shape (digits aside) from receipts: they repeat the same few formats hundreds of times.
        var shapes = Set<String>()
        var texts: [String] = []
        for (_, payload) in realPayloads + syntheticPayloads {
            for text in SeedSources.dates(in: payload)
            where shapes.insert(String(text.map { $0.isNumber ? "0" : $0 }))
                .inserted
            {
                texts.append(text)
            }
        }
        texts += [
            "2020-10-16T14:29:30+0300", "2020-10-16T14:29:30-03:00", "2015-05-25T15:22:10.123Z",
            "2024-02-29t12:00:00z", "2024-02-29 12:00:00Z", "2023-10-19T01:45:40.123456789123Z",
            ReceiptDate.format(epochSeconds: 0), ReceiptDate.format(epochSeconds: -62_167_219_200),
            ReceiptDate.format(epochSeconds: 253_402_300_799, nanosecond: 999_000_000),
        ]
        var seen = Set<String>()
        var seeds: [(name: String, bytes: [UInt8])] = []
        for text in texts where !text.isEmpty && seen.insert(text).inserted {
            seeds.append(("date-\(seeds.count)", Array(text.utf8)))
        }
        return seeds
    }

    /// Drops seeds whose bytes repeat an earlier one.
    func unique(_ seeds: [(name: String, bytes: [UInt8])]) -> [(name: String, bytes: [UInt8])] {
        var seen = Set<[UInt8]>()
        return seeds.filter { seen.insert($0.bytes).inserted }
    }
}

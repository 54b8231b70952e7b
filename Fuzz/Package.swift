// swift-tools-version:6.0
import PackageDescription

/// libFuzzer harnesses for rcpt, kept apart from the product build so sanitizer flags and libFuzzer's `main` never
/// touch it. Build with `scripts/fuzz.sh build` (see README.md); the recipe is
/// `swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address`.
///
/// One executable per entry point; `FuzzSupport` (no dependencies), `FuzzModelSupport` and `FuzzSigningSupport` (the
/// TEST-ONLY keys and the expectations of `verify`, shared with `fuzz-corpus`) hold shared helpers.
/// `baseline-*` parse the same inputs with swift-asn1, only to compare speed. `fuzz-corpus` is an ordinary tool
/// (built without sanitizers) that writes the seeds and dictionaries.
func rcpt(_ name: String) -> Target.Dependency { .product(name: name, package: "rcpt") }

let swiftASN1: Target.Dependency = .product(name: "SwiftASN1", package: "swift-asn1")

let harnesses: [(name: String, dependencies: [Target.Dependency])] = [
    ("attributes", ["FuzzModelSupport", rcpt("ReceiptASN1"), rcpt("ReceiptModel")]),
    ("in-app", ["FuzzModelSupport", rcpt("ReceiptASN1"), rcpt("ReceiptModel")]),
    ("ber", [rcpt("ReceiptASN1")]),
    ("pkcs7", [rcpt("ReceiptASN1"), rcpt("ReceiptPKCS7")]),
    ("dump", [rcpt("ReceiptModel"), rcpt("ReceiptValidation"), rcpt("ReceiptRendering")]),
    ("dates", [rcpt("ReceiptModel")]),
    ("differential", ["FuzzModelSupport", rcpt("ReceiptASN1"), rcpt("ReceiptPKCS7"), rcpt("ReceiptModel"), rcpt("ReceiptCrypto"), swiftASN1]),
    ("verify", [
        "FuzzSigningSupport", rcpt("ReceiptPKCS7"), rcpt("ReceiptModel"), rcpt("ReceiptCrypto"), rcpt("ReceiptSigning"),
        rcpt("ReceiptValidation"), rcpt("ReceiptMutation"),
    ]),
    ("baseline-attributes", [swiftASN1]),
    ("baseline-ber", [swiftASN1]),
]

let package = Package(
    name: "rcpt-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "rcpt", path: ".."),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.3.0"),
    ],
    targets: [
        .target(name: "FuzzSupport"),
        .target(name: "FuzzModelSupport", dependencies: ["FuzzSupport", rcpt("ReceiptASN1"), rcpt("ReceiptModel")]),
        .target(
            name: "FuzzSigningSupport",
            dependencies: [
                rcpt("ReceiptCrypto"), rcpt("ReceiptModel"), rcpt("ReceiptSigning"), rcpt("ReceiptValidation"),
                rcpt("ReceiptMutation"),
            ]
        ),
        .executableTarget(
            name: "fuzz-corpus",
            dependencies: [
                "FuzzSupport", "FuzzSigningSupport", rcpt("ReceiptASN1"), rcpt("ReceiptPKCS7"), rcpt("ReceiptModel"),
                rcpt("ReceiptCrypto"), rcpt("ReceiptSigning"), rcpt("ReceiptMutation"),
            ]
        ),
    ] + harnesses.map { harness in
        .executableTarget(
            name: harness.name,
            dependencies: ["FuzzSupport"] + harness.dependencies,
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    }
)

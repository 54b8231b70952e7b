// swift-tools-version:6.0
import PackageDescription

/// libFuzzer harnesses for rcpt, kept apart from the product build so sanitizer flags and libFuzzer's `main` never
/// touch it. Build with `scripts/fuzz.sh build` (see README.md); the recipe is
/// `swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address`.
///
/// One executable per entry point; `FuzzSupport` (no dependencies), `FuzzModelSupport`, `FuzzSigningSupport` (the
/// TEST-ONLY keys and the expectations of `verify`, shared with `fuzz-corpus`), `FuzzMutationSupport` (libFuzzer's
/// mutator and dictionary), `FuzzBERMutator` (the receipt harnesses' custom mutator and crossover: a harness that
/// links it has them), `FuzzJWSSupport` (the JWS harnesses' structure-aware mutator) and `FuzzResigningMutator` (the
/// custom mutation of the harnesses that verify tokens, re-signing with the TEST-ONLY JWS chain) hold shared helpers.
/// `baseline-*` parse the same inputs with swift-asn1, only to compare speed. `fuzz-corpus` is an ordinary tool
/// (built without sanitizers) that writes the seeds and dictionaries.
func rcpt(_ name: String) -> Target.Dependency { .product(name: name, package: "rcpt") }

let swiftASN1: Target.Dependency = .product(name: "SwiftASN1", package: "swift-asn1")

let parsing = rcpt("ReceiptParsing")
let inspection = rcpt("ReceiptInspection")

let harnesses: [(name: String, dependencies: [Target.Dependency])] = [
    // The receipt readers, with a mutator of the BER structure (linking FuzzBERMutator gives it).
    ("attributes", ["FuzzModelSupport", "FuzzBERMutator", parsing]),
    ("in-app", ["FuzzModelSupport", "FuzzBERMutator", parsing, inspection]),
    ("ber", ["FuzzBERMutator", parsing]),
    ("pkcs7", ["FuzzBERMutator", parsing]),
    ("dump", ["FuzzBERMutator", parsing, inspection, rcpt("ReceiptOutput")]),
    // The date parser, with a mutator of the date's fields (ReceiptMutation's DateTextMutator).
    ("dates", ["FuzzMutationSupport", parsing, rcpt("ReceiptForging")]),
    ("differential", ["FuzzModelSupport", "FuzzBERMutator", parsing, inspection, rcpt("ReceiptForging"), swiftASN1]),
    ("verify", ["FuzzSigningSupport", "FuzzMutationSupport", parsing, inspection, rcpt("ReceiptForging")]),
    ("jws", ["FuzzJWSSupport", parsing]),
    ("jws-verify", ["FuzzResigningMutator", "FuzzSigningSupport", parsing, inspection, rcpt("ReceiptForging")]),
    // What a customer owns, through the public library, from tokens the same mutator re-signs.
    ("status", ["FuzzResigningMutator", rcpt("Rcpt")]),
    ("classifier", ["FuzzBERMutator", parsing]),
    // A template for users' own harnesses (finds its planted bug by design: built, never run by --ci).
    ("example-validator", ["FuzzSigningSupport", parsing, inspection, rcpt("ReceiptFuzzing")]),
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
        .target(name: "FuzzMutationSupport", dependencies: [parsing, rcpt("ReceiptForging")]),
        .target(name: "FuzzBERMutator", dependencies: ["FuzzMutationSupport", rcpt("ReceiptForging")]),
        .target(name: "FuzzJWSSupport", dependencies: ["FuzzMutationSupport", parsing, rcpt("ReceiptForging")]),
        .target(name: "FuzzModelSupport", dependencies: ["FuzzSupport", parsing]),
        .target(
            name: "FuzzResigningMutator",
            dependencies: ["FuzzJWSSupport", "FuzzSigningSupport", parsing, rcpt("ReceiptForging")]
        ),
        .target(
            name: "FuzzSigningSupport",
            dependencies: [parsing, inspection, rcpt("ReceiptForging")]
        ),
        .executableTarget(
            name: "fuzz-corpus",
            dependencies: ["FuzzSupport", "FuzzSigningSupport", parsing, inspection, rcpt("ReceiptForging")]
        ),
    ]
        + harnesses.map { harness in
            .executableTarget(
                name: harness.name,
                dependencies: ["FuzzSupport"] + harness.dependencies,
                swiftSettings: [.unsafeFlags(["-parse-as-library"])]
            )
        }
)

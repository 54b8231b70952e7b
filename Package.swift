// swift-tools-version:6.0
import PackageDescription

/// rcpt: a forensics and fuzzing toolkit for Apple App Store receipts.
///
/// Layering (see ARCHITECTURE.md): ReceiptDiagnostics (findings and the FindingCode table, imported by every layer that
/// reports) and ReceiptASN1 → ReceiptPKCS7 → ReceiptModel import no Foundation and no OpenSSL, so the fuzz harnesses
/// link nothing else. ReceiptCrypto is the only importer of COpenSSL.
let package = Package(
    name: "rcpt",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "rcpt", targets: ["rcpt"]),
        // The library's front door: `import Rcpt` (AppStoreVerifier, typed models, status in-process).
        .library(name: "Rcpt", targets: ["Rcpt"]),
        // What a library user needs: reading a receipt (no Foundation, no OpenSSL) and inspecting it.
        .library(
            name: "ReceiptParsing",
            targets: [
                "ReceiptDiagnostics", "ReceiptASN1", "ReceiptPKCS7", "ReceiptModel", "ReceiptJSON",
                "ReceiptCaching", "ReceiptJWS", "ReceiptInput", "ReceiptPurchases",
            ]),
        .library(
            name: "ReceiptInspection",
            targets: ["ReceiptCrypto", "ReceiptValidation", "ReceiptVerifyReceipt", "ReceiptStatus"]),
        // The tool's own layers, for the fuzz harnesses and benchmarks beside it.
        .library(
            name: "ReceiptOutput",
            targets: ["ReceiptRendering", "ReceiptBatch", "ReceiptDiff", "ReceiptSuite", "ReceiptConformance"]),
        // Making receipts rather than reading them: builders, the synthetic receipt, signing, mutation, and the
        // OpenSSL CMS oracle the differential harness compares the reader with.
        .library(
            name: "ReceiptForging",
            targets: ["ReceiptBuilding", "ReceiptSigning", "ReceiptMutation", "ReceiptOracle"]),
        // Fuzzing a user's own validator against rcpt's verdict: the campaign engine and the in-process pieces.
        .library(name: "ReceiptFuzzing", targets: ["ReceiptFuzzing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `rcpt serve` only: the server ecosystem's own HTTP server (NIOHTTP1), no HTTP code of rcpt's own.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .target(name: "ReceiptDiagnostics"),
        .target(name: "ReceiptASN1", dependencies: ["ReceiptDiagnostics"]),
        .target(name: "ReceiptJSON", dependencies: ["ReceiptDiagnostics", "ReceiptASN1"]),
        // Bounded process-wide caches (least recently used forgotten), keyed by bytes: headers, certificates, chains.
        .target(name: "ReceiptCaching"),
        .target(
            name: "ReceiptJWS", dependencies: ["ReceiptDiagnostics", "ReceiptASN1", "ReceiptJSON", "ReceiptCaching"]),
        .target(name: "ReceiptPKCS7", dependencies: ["ReceiptDiagnostics", "ReceiptASN1"]),
        .target(
            name: "ReceiptModel", dependencies: ["ReceiptDiagnostics", "ReceiptASN1", "ReceiptPKCS7", "ReceiptJSON"]),
        // What a signed payload says of a purchase: its typed statements (the one model verify's purchase findings
        // and `rcpt status` read) and, for people, Apple's enumeration names, prices, dates in UTC.
        .target(
            name: "ReceiptPurchases", dependencies: ["ReceiptDiagnostics", "ReceiptJSON", "ReceiptJWS", "ReceiptModel"]),
        // The one answer to "what is this input?": a receipt or a JWS, found in what people paste.
        .target(
            name: "ReceiptInput", dependencies: ["ReceiptDiagnostics", "ReceiptJSON", "ReceiptJWS", "ReceiptModel"]),
        .target(name: "ReceiptCrypto", dependencies: ["ReceiptDiagnostics", "ReceiptCaching", "COpenSSL"]),
        // The payload and container builders and the synthetic receipt: writing, kept out of the reading products.
        .target(
            name: "ReceiptBuilding",
            dependencies: ["ReceiptDiagnostics", "ReceiptASN1", "ReceiptPKCS7", "ReceiptModel"]),
        // OpenSSL's own CMS reading, as a second opinion for the differential harness and tests.
        .target(name: "ReceiptOracle", dependencies: ["ReceiptCrypto", "COpenSSL"]),
        .target(
            name: "ReceiptSigning",
            dependencies: [
                "ReceiptASN1", "ReceiptPKCS7", "ReceiptModel", "ReceiptBuilding", "ReceiptCrypto", "ReceiptJWS",
            ]),
        .target(
            name: "ReceiptValidation",
            dependencies: [
                "ReceiptDiagnostics", "ReceiptASN1", "ReceiptPKCS7", "ReceiptModel", "ReceiptCrypto",
                "ReceiptJSON", "ReceiptJWS", "ReceiptPurchases", "ReceiptInput", "ReceiptCaching",
            ]
        ),
        .target(
            name: "ReceiptVerifyReceipt",
            dependencies: ["ReceiptDiagnostics", "ReceiptModel", "ReceiptValidation", "ReceiptJSON"]
        ),
        // What a customer owns at a time, from any mix of verified receipts and JWS (`rcpt status`).
        .target(
            name: "ReceiptStatus",
            dependencies: [
                "ReceiptDiagnostics", "ReceiptASN1", "ReceiptJSON", "ReceiptJWS", "ReceiptModel",
                "ReceiptPurchases", "ReceiptValidation",
            ]
        ),
        .target(
            name: "Rcpt",
            dependencies: [
                "ReceiptDiagnostics", "ReceiptASN1", "ReceiptJSON", "ReceiptJWS", "ReceiptModel", "ReceiptPurchases",
                "ReceiptCrypto", "ReceiptValidation", "ReceiptStatus", "ReceiptInput",
            ]
        ),
        .target(
            name: "ReceiptRendering",
            dependencies: [
                "ReceiptDiagnostics", "ReceiptASN1", "ReceiptPKCS7", "ReceiptModel", "ReceiptCrypto",
                "ReceiptValidation", "ReceiptSuite", "ReceiptConformance", "ReceiptDiff", "ReceiptJSON",
                "ReceiptJWS", "ReceiptPurchases", "ReceiptStatus", "ReceiptInput",
            ],
            // The report page's script and style, embedded at build time (`PackageResources.report_js`).
            resources: [.embedInCode("Assets/report.js"), .embedInCode("Assets/report.css")]
        ),
        // The batch engine: one classified input or many files inspected in parallel, lines in input order. Reads
        // files and schedules threads; the renderers give it its lines.
        .target(
            name: "ReceiptBatch",
            dependencies: [
                "ReceiptDiagnostics", "ReceiptASN1", "ReceiptModel", "ReceiptCrypto", "ReceiptJWS",
                "ReceiptValidation", "ReceiptInput",
            ]
        ),
        .target(
            name: "ReceiptMutation",
            dependencies: [
                "ReceiptDiagnostics", "ReceiptASN1", "ReceiptPKCS7", "ReceiptModel", "ReceiptCrypto",
                "ReceiptBuilding", "ReceiptSigning", "ReceiptSuite", "ReceiptJSON", "ReceiptJWS",
                "ReceiptValidation",
            ]
        ),
        .target(
            name: "ReceiptDiff",
            dependencies: [
                "ReceiptDiagnostics", "ReceiptASN1", "ReceiptPKCS7", "ReceiptModel", "ReceiptCrypto",
                "ReceiptValidation", "ReceiptJSON", "ReceiptJWS",
            ]
        ),
        .target(name: "ReceiptSuite", dependencies: ["ReceiptDiagnostics", "ReceiptJSON"]),
        .target(name: "ReceiptConformance", dependencies: ["ReceiptSuite"]),
        // HTTP endpoints as validators (`conformance --target`): http:// through SwiftNIO's HTTP/1 client codec,
        // https:// through Foundation's URLSession; only the command imports it, so the reading core and the fuzz
        // harnesses never link networking.
        .target(
            name: "ReceiptHTTP",
            dependencies: [
                "ReceiptConformance", "ReceiptSuite", "ReceiptJSON", "ReceiptDiagnostics",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        // A local stand-in for the Apple endpoints a backend calls (`rcpt serve`): verifyReceipt and the App Store
        // Server API, scenarios, and the judgement of a backend's handling of each answer. SwiftNIO's HTTP/1 server;
        // only the command imports it.
        .target(
            name: "ReceiptServe",
            dependencies: [
                "ReceiptDiagnostics", "ReceiptASN1", "ReceiptJSON", "ReceiptJWS", "ReceiptModel", "ReceiptPKCS7",
                "ReceiptValidation", "ReceiptVerifyReceipt", "ReceiptSuite", "ReceiptConformance", "ReceiptHTTP",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]),
        .target(
            name: "ReceiptFuzzing",
            dependencies: [
                "ReceiptDiagnostics", "ReceiptModel", "ReceiptCrypto", "ReceiptValidation", "ReceiptBuilding",
                "ReceiptSigning",
                "ReceiptMutation", "ReceiptSuite", "ReceiptConformance", "ReceiptJWS", "ReceiptInput", "ReceiptBatch",
            ]
        ),
        .executableTarget(
            name: "rcpt",
            dependencies: [
                "ReceiptDiagnostics", "ReceiptASN1", "ReceiptPKCS7", "ReceiptModel", "ReceiptCrypto", "ReceiptBuilding",
                "ReceiptSigning",
                "ReceiptValidation", "ReceiptBatch", "ReceiptRendering", "ReceiptMutation", "ReceiptDiff",
                "ReceiptSuite",
                "ReceiptConformance", "ReceiptHTTP", "ReceiptServe", "ReceiptJSON", "ReceiptVerifyReceipt",
                "ReceiptJWS",
                "ReceiptFuzzing", "ReceiptInput", "ReceiptStatus",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "ReceiptTestSupport",
            dependencies: [
                "ReceiptDiagnostics", "ReceiptASN1", "ReceiptPKCS7", "ReceiptModel", "ReceiptCrypto",
                "ReceiptBuilding", "ReceiptSigning", "ReceiptValidation", "ReceiptJSON",
            ],
            path: "Tests/Support/ReceiptTestSupport"
        ),
        .testTarget(name: "ReceiptASN1Tests", dependencies: ["ReceiptASN1", "ReceiptTestSupport"]),
        .testTarget(
            name: "ReceiptPKCS7Tests",
            dependencies: ["ReceiptBuilding", "ReceiptDiagnostics", "ReceiptASN1", "ReceiptPKCS7"]),
        .testTarget(
            name: "ReceiptModelTests",
            dependencies: [
                "ReceiptBuilding", "ReceiptDiagnostics", "ReceiptASN1", "ReceiptPKCS7", "ReceiptModel",
                "ReceiptTestSupport",
            ]
        ),
        .testTarget(
            name: "ReceiptStatusTests",
            dependencies: [
                "ReceiptStatus", "ReceiptValidation", "ReceiptBatch", "ReceiptInput", "ReceiptSigning",
                "ReceiptCrypto", "ReceiptDiagnostics", "ReceiptJSON", "ReceiptJWS", "ReceiptMutation",
                "ReceiptPurchases", "ReceiptRendering", "ReceiptTestSupport",
            ]
        ),
        .testTarget(name: "ReceiptCryptoTests", dependencies: ["ReceiptCrypto", "ReceiptOracle"]),
        .testTarget(name: "ReceiptCachingTests", dependencies: ["ReceiptCaching"]),
        .testTarget(name: "ReceiptJSONTests", dependencies: ["ReceiptBuilding", "ReceiptJSON", "ReceiptModel"]),
        .testTarget(
            name: "ReceiptFuzzingTests",
            dependencies: [
                "ReceiptModel", "ReceiptValidation", "ReceiptBuilding", "ReceiptSigning", "ReceiptConformance",
                "ReceiptFuzzing",
                "ReceiptMutation", "ReceiptTestSupport",
            ]
        ),
        .testTarget(
            name: "ReceiptInputTests",
            dependencies: [
                "ReceiptBatch", "ReceiptDiagnostics", "ReceiptDiff", "ReceiptInput", "ReceiptJWS", "ReceiptModel",
                "ReceiptCrypto", "ReceiptValidation", "ReceiptRendering", "ReceiptTestSupport",
            ]
        ),
        .testTarget(
            name: "ReceiptJWSTests",
            dependencies: [
                "ReceiptDiagnostics", "ReceiptASN1", "ReceiptJSON", "ReceiptJWS", "ReceiptModel", "ReceiptCrypto",
                "ReceiptBuilding", "ReceiptSigning", "ReceiptValidation", "ReceiptTestSupport", "ReceiptPurchases",
                "ReceiptRendering",
            ]
        ),
        .testTarget(
            name: "ReceiptVerifyReceiptTests",
            dependencies: [
                "ReceiptBuilding", "ReceiptDiagnostics", "ReceiptModel", "ReceiptValidation", "ReceiptJSON",
                "ReceiptVerifyReceipt", "ReceiptTestSupport",
            ],
            exclude: ["Pairs"]
        ),
        .testTarget(
            name: "ReceiptValidationTests",
            dependencies: [
                "ReceiptDiagnostics", "ReceiptInput",
                "ReceiptASN1", "ReceiptPKCS7", "ReceiptModel", "ReceiptCrypto", "ReceiptBuilding", "ReceiptSigning",
                "ReceiptValidation",
                "ReceiptTestSupport",
            ]
        ),
        .testTarget(
            name: "ReceiptMutationTests",
            dependencies: [
                "ReceiptDiagnostics",
                "ReceiptASN1", "ReceiptPKCS7", "ReceiptModel", "ReceiptCrypto", "ReceiptBuilding", "ReceiptSigning",
                "ReceiptValidation",
                "ReceiptMutation", "ReceiptRendering", "ReceiptSuite", "ReceiptConformance", "ReceiptTestSupport",
                "ReceiptJWS",
            ]
        ),
        .testTarget(
            name: "ReceiptDiffTests",
            dependencies: [
                "ReceiptJSON",
                "ReceiptDiagnostics",
                "ReceiptASN1", "ReceiptPKCS7", "ReceiptModel", "ReceiptCrypto", "ReceiptValidation", "ReceiptDiff",
                "ReceiptBuilding", "ReceiptSigning", "ReceiptMutation", "ReceiptRendering", "ReceiptTestSupport",
            ]
        ),
        .testTarget(name: "RcptTests", dependencies: ["Rcpt", "ReceiptTestSupport"]),
        .testTarget(
            name: "ReceiptServeTests",
            dependencies: [
                "ReceiptServe", "ReceiptJSON", "ReceiptValidation", "ReceiptVerifyReceipt", "ReceiptTestSupport",
                "ReceiptHTTP", "ReceiptConformance", "ReceiptPKCS7",
            ]),
        .testTarget(
            name: "RcptCLITests",
            dependencies: ["rcpt", "ReceiptDiagnostics", "ReceiptModel", "ReceiptTestSupport", "ReceiptHTTP"],
            exclude: ["Golden", "Validators"]
        ),
    ]
)

// Each module's folder shows its layer: Sources/Reading (the reading core: bytes to a model, no Foundation, no
// OpenSSL), Judging (crypto, verdicts, status), Library (the front door, `import Rcpt`), Making (building, signing, mutation and the suite it writes) and
// Tools (rendering, batch, diff, conformance, fuzzing, the command). A module imports only from its own layer and
// the ones before it (ArchitectureTests); each test target sits under Tests/ in the layer of the module it tests.
let layers: [String: [String]] = [
    "Reading": [
        "ReceiptDiagnostics", "ReceiptASN1", "ReceiptPKCS7", "ReceiptModel", "ReceiptJSON", "ReceiptCaching",
        "ReceiptJWS", "ReceiptInput", "ReceiptPurchases",
    ],
    "Judging": ["COpenSSL", "ReceiptCrypto", "ReceiptValidation", "ReceiptVerifyReceipt", "ReceiptStatus"],
    "Library": ["Rcpt"],
    "Making": ["ReceiptBuilding", "ReceiptSigning", "ReceiptMutation", "ReceiptOracle", "ReceiptSuite"],
    "Tools": [
        "ReceiptRendering", "ReceiptBatch", "ReceiptDiff", "ReceiptConformance", "ReceiptHTTP", "ReceiptServe",
        "ReceiptFuzzing", "rcpt",
    ],
]
let testedModule = ["RcptCLITests": "rcpt", "RcptTests": "Rcpt"]
for target in package.targets where target.path == nil {
    let module = testedModule[target.name] ?? String(target.name.dropLast(target.isTest ? 5 : 0))
    guard let layer = layers.first(where: { $0.value.contains(module) })?.key else { continue }
    target.path = "\(target.isTest ? "Tests" : "Sources")/\(layer)/\(target.name)"
}

// Members are visible only from modules a file imports itself (SE-0444): a file's imports say what it uses.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}

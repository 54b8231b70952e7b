// swift-tools-version:6.0
import PackageDescription

/// Benchmarks for rcpt, kept apart from the product: `rcpt-bench` parses and decodes receipts in-process with rcpt's
/// libraries or with a swift-asn1 implementation of the same work (the baseline, which lives only here).
/// Run everything with `scripts/bench.sh`.
let package = Package(
    name: "rcpt-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "rcpt", path: ".."),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.3.0"),
    ],
    targets: [
        .executableTarget(
            name: "rcpt-bench",
            dependencies: [
                .product(name: "Rcpt", package: "rcpt"),
                .product(name: "ReceiptParsing", package: "rcpt"),
                .product(name: "ReceiptInspection", package: "rcpt"),
                .product(name: "ReceiptForging", package: "rcpt"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        )
    ]
)

// swift-tools-version:6.0
import PackageDescription

/// A backend's-eye test of rcpt's library: a package outside rcpt that depends on it by path and sees only its
/// public API. It compiles and runs every library snippet of the README (`Snippets.swift`; a test in rcpt holds the
/// README to this file) against the repository's corpus. `scripts/test.sh` runs it; so can you:
/// `swift run --package-path Examples/LibraryClient`.
let package = Package(
    name: "LibraryClient",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "rcpt", path: "../..")],
    targets: [
        .executableTarget(
            name: "library-client",
            dependencies: [.product(name: "Rcpt", package: "rcpt")]
        )
    ]
)

import ArgumentParser
import Foundation
import ReceiptCrypto
import ReceiptModel
import ReceiptSigning

/// `rcpt ca`: TEST-ONLY certificate authorities for signing test receipts.
struct CertificateAuthority: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ca",
        abstract: "Manage TEST-ONLY certificate authorities that sign test receipts.",
        discussion: """
            Example:
              rcpt ca init testca && rcpt build --synthetic 10 --ca testca -o test.receipt
            """,
        subcommands: [Init.self]
    )

    /// What a new CA looks like.

    /// `rcpt ca init DIR`.
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Create a TEST-ONLY CA shaped like Apple's receipt signing chain.",
            discussion: """
                Writes root.pem, intermediate.pem, leaf.pem and leaf.key (PEM, usable by the OpenSSL CLI) plus \
                root.key and intermediate.key, and in foreign/ a second, unrelated chain that mutation suites sign \
                with to test that validators trust only their own root. The apple shape is root → WWDR-like intermediate (with Apple's \
                intermediate marker extension) → receipt-signing leaf (with the leaf marker extension); the storekit \
                shape is one self-signed certificate, like Xcode's StoreKit testing; the jws shape is Apple's JWS \
                chain in EC keys (P-384 root and WWDR-like intermediate with its marker, P-256 leaf with its marker), \
                for ES256 tokens that rcpt build and rcpt mutate sign. Every subject says TEST-ONLY.

                Examples:
                  rcpt ca init testca
                  rcpt ca init --shape storekit --not-after 2020-01-01T00:00:00Z expired-storekit
                  rcpt ca init --shape jws testca-jws
                """
        )

        @Argument(help: ArgumentHelp("The directory to write the CA into (created if needed).", valueName: "dir"))
        var directory: String

        @Option(
            help:
                "apple (root, intermediate, leaf), storekit (one self-signed certificate) or jws (Apple's EC JWS chain)."
        )
        var shape: TestCertificateAuthority.Shape = .apple

        @Option(name: .customLong("not-before"), help: "Start of validity, RFC 3339.")
        var notBefore: String = "2000-01-01T00:00:00Z"

        @Option(
            name: .customLong("not-after"), help: "End of validity, RFC 3339 (an early date makes an expired chain).")
        var notAfter: String = "2099-12-31T23:59:59Z"

        @Option(name: .customLong("key-bits"), parsing: .unconditional, help: "RSA key size in bits, 2048 to 8192.")
        var keyBits: Int = 2048

        @Flag(help: "Replace an existing CA in the directory.")
        var force = false

        func validate() throws {
            for (name, value) in [("--not-before", notBefore), ("--not-after", notAfter)] {
                guard case .success = ReceiptDate.parse(value) else {
                    throw ValidationError("\(name) takes an RFC 3339 date such as 2030-01-01T00:00:00Z, not '\(value)'")
                }
            }
            if case .success(let start) = ReceiptDate.parse(notBefore),
                case .success(let end) = ReceiptDate.parse(notAfter),
                start.secondsSinceEpoch >= end.secondsSinceEpoch
            {
                throw ValidationError(
                    "--not-before (\(notBefore)) must come before --not-after (\(notAfter)): no instant would be inside the validity"
                )
            }
            guard (2048...8192).contains(keyBits) else {
                throw ValidationError("--key-bits must be 2048 to 8192 (verify refuses RSA keys under 2048 bits)")
            }
        }

        func run() throws {
            try Console.guarded {
                let start = (try? ReceiptDate.parse(notBefore).get())?.secondsSinceEpoch ?? 0
                let end = (try? ReceiptDate.parse(notAfter).get())?.secondsSinceEpoch ?? 0
                do throws(CryptoError) {
                    let authority = try TestCertificateAuthority.generate(
                        shape: shape, notBefore: start, notAfter: end, keyBits: keyBits)
                    try CertificateAuthorityFiles.write(authority, to: directory, force: force)
                    let foreign = try TestCertificateAuthority.generate(
                        shape: shape == .jws ? .jws : .apple, notBefore: start, notAfter: end, keyBits: keyBits,
                        label: "rcpt foreign")
                    try CertificateAuthorityFiles.write(
                        foreign, to: directory + "/" + CertificateAuthorityFiles.foreignFolder, force: force)
                } catch {
                    throw CommandFailure.usage(error.message)
                }
                Console.error(
                    "wrote a TEST-ONLY \(shape.rawValue) CA to \(directory); trust it with --root \(directory)/root.pem"
                )
                return 0
            }
        }
    }
}

/// `--shape apple|storekit|jws`: the chain's shapes, by their raw values.
extension TestCertificateAuthority.Shape: ExpressibleByArgument {}

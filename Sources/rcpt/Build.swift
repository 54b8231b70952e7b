import ArgumentParser
import Foundation
import ReceiptCrypto
import ReceiptModel
import ReceiptPKCS7
import ReceiptSigning

/// `rcpt build`: make a signed receipt.
struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build a signed receipt with a TEST-ONLY CA.",
        discussion: """
            --synthetic N builds a deterministic, realistic receipt with N in-app records (for tests, benchmarks and \
            fuzz seeds); the same options always give the same payload.
            """
    )

    @Option(help: ArgumentHelp("Build a synthetic receipt with this many in-app records.", valueName: "records"))
    var synthetic: Int

    @Option(help: ArgumentHelp("The CA directory made by `rcpt ca init`.", valueName: "dir"))
    var ca: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the receipt.", valueName: "file"))
    var output: String

    @Option(help: "Digest algorithm: sha1 or sha256.")
    var digest: DigestChoice = .sha256

    @Option(help: "Container layout: der (App Store) or ber (Xcode's indefinite lengths).")
    var layout: ContainerLayout = .der

    @Flag(name: .customLong("signed-attributes"), help: "Sign contentType and messageDigest attributes.")
    var signedAttributes = false

    @Option(name: .customLong("bundle-id"), help: "The bundle identifier.")
    var bundleID: String = "com.example.rcpt.synthetic"

    @Option(help: "Seed for the synthetic ids and dates.")
    var seed: UInt64 = 1

    enum DigestChoice: String, ExpressibleByArgument, CaseIterable {
        case sha1
        case sha256
    }

    func validate() throws {
        guard (0...10_000_000).contains(synthetic) else {
            throw ValidationError("--synthetic takes 0 to 10000000 records")
        }
    }

    func run() throws {
        try Console.guarded {
            let authority: TestCertificateAuthority
            do throws(CryptoError) {
                authority = try CertificateAuthorityFiles.load(from: ca)
            } catch {
                throw CommandFailure.usage(error.message)
            }
            let payload = SyntheticReceipt(bundleID: bundleID, records: synthetic, seed: seed).payload()
            let bytes: [UInt8]
            do throws(CryptoError) {
                bytes = try ReceiptSigner(authority: authority).sign(
                    payload, digest: digest == .sha1 ? .sha1 : .sha256, layout: layout,
                    signedAttributes: signedAttributes)
            } catch {
                throw CommandFailure.usage("signing failed: \(error.message)")
            }
            guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else {
                throw CommandFailure.unreadable("cannot write \(output)")
            }
            Console.error("wrote \(output): \(bytes.count) bytes, \(synthetic) in-app records")
            return 0
        }
    }
}

extension ContainerLayout: ExpressibleByArgument {}

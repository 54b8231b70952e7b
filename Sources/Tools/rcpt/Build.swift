import ArgumentParser
import Foundation
import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptModel
import ReceiptMutation
import ReceiptPKCS7
import ReceiptSigning
import ReceiptValidation

/// `rcpt build`: make a signed receipt.
struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build a signed receipt with a TEST-ONLY CA, from a JSON spec or synthetic data.",
        discussion: """
            SPEC is the `receipt` object of `rcpt dump --format json` (or the whole document), from a file or - \
            (standard input): every documented and undocumented field by name, in-app records under in_app, other \
            types under unknown by number. A value may also be {"raw": "<hex>"} for exact value bytes or \
            {"asn1": "UTF8String|IA5String|INTEGER|BOOLEAN", "value": …}, each with an optional "version". \
            Keys ending in _ms are ignored. For example:

              rcpt dump --format json r.receipt | jq '.receipt.in_app[0].expires_date = "2020-01-01T00:00:00Z"' \\
                | rcpt build - --ca testca -o extended.receipt

            --synthetic N builds a deterministic, realistic receipt with N in-app records instead.

            --jws builds a StoreKit 2 JWS instead: SPEC is the payload JSON (a JSON object, signed exactly as given), \
            signed ES256 by the leaf of a CA made with `rcpt ca init --shape jws`, its chain in x5c. The dump of a \
            JWS gives each token's payload text, so:

              rcpt dump --format json t.jws | jq -r '.tokens[0].payload.text' | jq '.bundleId = "com.example.other"' \
                | rcpt build --jws - --ca testca-jws -o other.jws
            """
    )

    @Argument(help: ArgumentHelp("The JSON spec, or - for standard input.", valueName: "spec"))
    var spec: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Build a synthetic receipt with this many in-app records.", valueName: "records"))
    var synthetic: Int?

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

    @Option(
        name: .customLong("device-id"),
        help: "Compute the SHA-1 hash attribute (type 5) for this device (UUID or MAC address).")
    var deviceID: String?

    @Option(name: .customLong("bundle-id"), help: "The bundle identifier of a synthetic receipt.")
    var bundleID: String = "com.example.rcpt.synthetic"

    @Option(parsing: .unconditional, help: "Seed for the synthetic ids and dates.")
    var seed: UInt64 = 1

    @Flag(help: "Build a JWS (ES256, x5c) of the payload JSON SPEC with a jws-shaped CA.")
    var jws = false

    enum DigestChoice: String, ExpressibleByArgument, CaseIterable {
        case sha1
        case sha256
    }

    func validate() throws {
        guard (spec != nil) != (synthetic != nil) else {
            throw ValidationError("give a JSON spec (or -) or --synthetic N, not both")
        }
        // About 400 bytes a record: two million stay within the 1 GiB rcpt reads, and within memory (a
        // hostile-bytes trial: ten million would need some 13 GB and write a receipt rcpt could not read).
        if let synthetic, !(0...2_000_000).contains(synthetic) {
            throw ValidationError("--synthetic takes 0 to 2000000 records (a larger receipt is beyond what rcpt reads)")
        }
        if let deviceID, Expectations.parseDeviceID(deviceID) == nil {
            throw ValidationError("--device-id takes a UUID or a MAC address, not '\(deviceID)'")
        }
        if jws && spec == nil { throw ValidationError("--jws signs a payload JSON SPEC (or -)") }
    }

    /// A JWS of the payload JSON, signed by the CA's EC leaf with its chain in x5c.
    func buildJWS(_ authority: TestCertificateAuthority, spec: String) throws -> Int32 {
        let payload = try InputFiles.read(spec)
        do {
            let document = try JSONDocument.read(payload)
            guard document.nodes.first?.kind == .object else {
                throw CommandFailure.unreadable("the payload is JSON but not an object")
            }
        } catch let error as JSONError {
            throw CommandFailure.unreadable("the payload is not JSON: \(error.message) at offset \(error.offset)")
        }
        guard authority.leaf.keyAlgorithm == .ec else {
            throw CommandFailure.usage(
                "\(ca) is not a JWS CA (its leaf key is not EC): make one with `rcpt ca init --shape jws`")
        }
        // Sign the payload as given, less the trailing line break a file or jq leaves.
        var trimmed = payload[...]
        while let last = trimmed.last, last == 0x0A || last == 0x0D { trimmed = trimmed.dropLast() }
        let token: String
        do throws(CryptoError) {
            token = try JWSSigner(authority: authority).sign(payload: Array(trimmed))
        } catch {
            throw CommandFailure.usage("signing failed: \(error.message)")
        }
        guard FileManager.default.createFile(atPath: output, contents: Data((token + "\n").utf8)) else {
            throw CommandFailure.unreadable("cannot write \(output): \(InputFiles.whyUnwritable(output))")
        }
        Console.error("wrote \(output): a \(token.utf8.count)-character JWS signed by \(authority.leaf.subject)")
        return 0
    }

    func run() throws {
        try Console.guarded {
            let authority: TestCertificateAuthority
            do throws(CryptoError) {
                authority = try CertificateAuthorityFiles.load(from: ca)
            } catch {
                throw CommandFailure.usage("\(error.message) (make a CA with `rcpt ca init \(ca)`)")
            }
            if jws, let spec { return try buildJWS(authority, spec: spec) }
            guard authority.leaf.keyAlgorithm == .rsa else {
                throw CommandFailure.usage(
                    "\(ca) is a JWS CA (its leaf key is EC), and receipts are signed with RSA: make one with `rcpt ca init` (the default shape)"
                )
            }
            var blueprint: ReceiptBlueprint
            if let spec {
                let json = try InputFiles.read(spec)
                do throws(MutationError) {
                    blueprint = try ReceiptSpec.blueprint(fromJSON: json)
                } catch {
                    throw CommandFailure.unreadable(error.message)
                }
            } else {
                let synthetic = SyntheticReceipt(bundleID: bundleID, records: synthetic ?? 0, seed: seed)
                blueprint = ReceiptBlueprint(attributes: synthetic.attributes())
            }
            if let device = deviceID.flatMap(Expectations.parseDeviceID) {
                do throws(MutationError) {
                    try blueprint.computeHash(forDevice: device)
                } catch {
                    throw CommandFailure.usage(error.message)
                }
            }
            let bytes: [UInt8]
            do throws(CryptoError) {
                bytes = try ReceiptSigner(authority: authority).sign(
                    blueprint.payload, digest: digest == .sha1 ? .sha1 : .sha256, layout: layout,
                    signedAttributes: signedAttributes)
            } catch {
                throw CommandFailure.usage("signing failed: \(error.message)")
            }
            guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else {
                throw CommandFailure.unreadable("cannot write \(output): \(InputFiles.whyUnwritable(output))")
            }
            let records = blueprint.attributes.filter { $0.type == 17 }.count
            Console.error("wrote \(output): \(bytes.count) bytes, \(records) in-app records")
            return 0
        }
    }
}

extension ContainerLayout: ExpressibleByArgument {}

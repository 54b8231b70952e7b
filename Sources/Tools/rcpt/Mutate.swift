import ArgumentParser
import Foundation
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptMutation
import ReceiptRendering
import ReceiptSuite
import ReceiptValidation

/// `rcpt mutate`: build malformed and re-signed receipts from the catalogue.
struct Mutate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mutate",
        abstract: "Build malformed, expired and re-signed receipts from a named catalogue.",
        discussion: """
            Each mutation re-signs the input's content with the TEST-ONLY CA made by `rcpt ca init` (so it exercises \
            exactly one flaw), after recomputing the SHA-1 hash for a test device (--device-id). --all writes every \
            mutation and a manifest.json saying what each receipt is, what a correct validator must conclude, and \
            the finding `rcpt verify` gives; `rcpt conformance` runs a validator on such a suite. The input is never \
            modified. The same input, CA and --seed always give the same receipts; a JWS \
            suite the same tokens but for their signatures (ECDSA's nonce is random), each with a low S but \
            high-s-twin's, so every verdict is the same.

            Examples:
              rcpt mutate --list
              rcpt mutate real.receipt --mutation foreign-ca --ca testca -o foreign.receipt
              rcpt mutate real.receipt --all --ca testca --out-dir suite
              rcpt ca init --shape jws testca-jws && rcpt mutate transaction.jws --all --ca testca-jws --out-dir jws-suite
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The receipt to mutate (raw, base64, PEM or a verifyReceipt body), or -.",
            valueName: "file"))
    var file: String?

    @Flag(help: "List the catalogue instead of mutating.")
    var list = false

    @Option(help: ArgumentHelp("The mutation to apply (see --list).", valueName: "name"))
    var mutation: String?

    @Flag(help: "Apply every mutation; write them and manifest.json into --out-dir.")
    var all = false

    @Option(help: ArgumentHelp("The CA directory made by `rcpt ca init`.", valueName: "dir"))
    var ca: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the mutated receipt.", valueName: "file"))
    var output: String?

    @Option(name: .customLong("out-dir"), help: ArgumentHelp("Where --all writes the suite.", valueName: "dir"))
    var outDirectory: String?

    @Option(parsing: .unconditional, help: "Seed for the mutations' random choices.")
    var seed: UInt64 = 1

    @Option(name: .customLong("device-id"), help: "The test device the receipts' hashes are computed for.")
    var deviceID: String = MutationKit.defaultDeviceID

    @Option(
        help:
            "Output format of --list: text, json (rcpt.mutation-list/1) or markdown (the table docs/catalogue.md holds)."
    )
    var format: ListFormat = .text

    @Flag(help: "Replace an existing suite in --out-dir.")
    var force = false

    @Option(
        help: ArgumentHelp(
            "Where the validator under test runs: device (asked for the device binding and the app version) or server (asked for neither: those entries are skipped, and the suggested line names only what a server knows).",
            valueName: "context"))
    var context: ValidatorContext = .device

    func validate() throws {
        if list { return }
        guard file != nil else { throw ValidationError("give a receipt file, or --list") }
        guard ca != nil else { throw ValidationError("--ca DIR is required (make one with `rcpt ca init DIR`)") }
        guard (mutation != nil) != all else { throw ValidationError("give exactly one of --mutation NAME and --all") }
        if let mutation, MutationCatalogue.anyNamed(mutation) == nil {
            throw ValidationError("no mutation named '\(mutation)'; `rcpt mutate --list` shows them")
        }
        if mutation != nil, output == nil { throw ValidationError("--mutation needs -o FILE") }
        if all, outDirectory == nil { throw ValidationError("--all needs --out-dir DIR") }
        guard Expectations.parseDeviceID(deviceID) != nil else {
            throw ValidationError("--device-id takes a UUID or a MAC address, not '\(deviceID)'")
        }
    }

    func run() throws {
        try Console.guarded {
            if list {
                switch format {
                case .text: Console.write(Array(MutationListing.text().utf8))
                case .json: Console.write(MutationListing.json())
                case .markdown: Console.write(Array(MutationListing.markdown().utf8))
                }
                return 0
            }
            guard let file, let ca else { return 2 }
            let input = try InputFiles.read(file)
            let kit: MutationKit
            do throws(CryptoError) {
                kit = try MutationKit.load(from: ca, deviceID: Expectations.parseDeviceID(deviceID) ?? [])
            } catch {
                throw CommandFailure.usage("\(error.message) (make a CA with `rcpt ca init \(ca)`)")
            }
            if let output { try refuseToOverwrite(input: file, output: output) }
            let kind = InputClassifier.classify(input).kind
            do throws(MutationError) {
                if let name = mutation, let output {
                    guard let chosen = MutationCatalogue.all(for: kind).first(where: { $0.name == name }) else {
                        throw kind == .jws
                            ? MutationError(
                                .notAJWSMutation,
                                "'\(name)' mutates receipts; the input is a JWS (`rcpt mutate --list` shows the JWS ones)"
                            )
                            : MutationError(
                                .notAReceiptMutation,
                                "'\(name)' mutates JWS, and the input is no JWS (`rcpt mutate --list` shows the receipt ones)"
                            )
                    }
                    try BaselineCheck.expectations(of: input, kind: kind, kit: kit, seed: seed, caDirectory: ca)
                    try write(
                        try chosen.apply(to: input, kit: kit, seed: seed), to: output, chosen.name,
                        expected: chosen.expected)
                } else if let outDirectory {
                    report(
                        try MutationSuite.write(
                            input: input, inputName: file, kit: kit, seed: seed, caDirectory: ca,
                            to: outDirectory, force: force, rcpt: Console.executablePath,
                            context: context),
                        of: kind == .jws ? "JWS" : "receipts", in: outDirectory)
                }
            } catch {
                throw CommandFailure.unreadable(error.message)
            }
            return 0
        }
    }

    /// Writes one mutated input and says so.
    func write(_ bytes: [UInt8], to output: String, _ name: String, expected: ExpectedVerdict) throws(MutationError) {
        guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else {
            throw MutationError(.writeFailed, "cannot write \(output): \(InputFiles.whyUnwritable(output))")
        }
        Console.error("wrote \(output): \(name) (expected: \(expected.rawValue))")
    }

    /// Says what a suite holds and how to run a validator over it.
    func report(_ manifest: Manifest, of kind: String, in directory: String) {
        Console.error(
            "wrote \(manifest.mutations.count) \(kind) and manifest.json to \(directory)"
                + (manifest.skipped.isEmpty
                    ? ""
                    : "; skipped \(manifest.skipped.count): "
                        + manifest.skipped.keys.sorted().joined(separator: ", ")))
        Console.error(
            "run a validator on them: rcpt conformance --validator \(ShellWords.quoted(manifest.expectations.validator)) \(ShellWords.quoted(ShellWords.absolute(directory)))"
        )
        if manifest.expectations.environment == ReceiptEnvironment.xcode.rawValue {
            Console.error(
                "note: the seed is an Xcode (StoreKit testing) document, and Apple's libraries do not verify the signature of Xcode documents: a validator built on them accepts this suite's signature entries; make the suite from a Sandbox or Production document to test its signature checks"
            )
        }
    }

    func refuseToOverwrite(input: String, output: String) throws {
        let resolvedInput = URL(fileURLWithPath: input).resolvingSymlinksInPath().path
        let resolvedOutput = URL(fileURLWithPath: output).resolvingSymlinksInPath().path
        if input != "-", resolvedInput == resolvedOutput {
            throw CommandFailure.usage("-o \(output) is the input: rcpt never overwrites evidence")
        }
    }
}

extension ValidatorContext: ExpressibleByArgument {}

/// How `mutate --list` writes the catalogue.
enum ListFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case markdown
}

/// The catalogue as text, JSON or a Markdown table.
enum MutationListing {
    /// `docs/catalogue.md`: every entry with its verdict, attacker, concern and why (a test holds the file to it).
    static func markdown() -> String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        var out =
            "# The mutation catalogue\n\n"
            + "Written by `rcpt mutate --list --format markdown`; `theCatalogueDocumentIsTheCatalogue` fails when this file differs.\n"
            + "Who could make each entry (**anyone** without a key, a **replay** of a genuine document, or only the\n"
            + "**signer**) and what accepting it costs (**security**, **policy** or **robustness**): see README.md,\n"
            + "\"Who could make it\".\n"
        func table(_ title: String, _ rows: [(String, String, ExpectedVerdict, String?, Threat, String)]) {
            out += "\n## \(title) (\(rows.count))\n\n"
            out += "| entry | group | expected | rcpt's finding | attacker | concern | why | readers it would fool |\n"
            out += "|---|---|---|---|---|---|---|---|\n"
            for (name, group, expected, finding, threat, summary) in rows {
                out +=
                    "| `\(name)` | \(group) | \(expected.rawValue) | \(finding.map { "`\($0)`" } ?? "") | "
                    + "\(threat.attacker.rawValue) | \(threat.concern.rawValue) | \(cell(summary)): \(cell(threat.why)) | "
                    + "\(cell(threat.readers ?? "")) |\n"
            }
        }
        table(
            "Receipts",
            MutationCatalogue.all.map { ($0.name, $0.group.rawValue, $0.expected, $0.finding, $0.threat, $0.summary) })
        table(
            "JWS", JWSMutationCatalogue.all.map { ($0.name, $0.layer, $0.expected, $0.finding, $0.threat, $0.summary) })
        return out
    }

    static func text() -> String {
        var out = ""
        for group in MutationGroup.allCases {
            let members = (MutationCatalogue.all + JWSMutationCatalogue.all).filter { $0.group == group }
            guard !members.isEmpty else { continue }
            let note = group == .jws ? ", for JWS inputs: re-signed with a CA from `rcpt ca init --shape jws`" : ""
            out += "\(group.rawValue) (\(members.count)\(note))\n"
            for mutation in members {
                out += entry(
                    mutation.name, mutation.expected, mutation.finding, mutation.threat, mutation.summary,
                    mutation.layer)
            }
        }
        return out
            + "\n\(MutationCatalogue.all.count) receipt mutations, \(JWSMutationCatalogue.all.count) JWS mutations\n"
    }

    /// One entry: its name, verdict, finding, attacker and concern; what it does; who could make it.
    static func entry(
        _ name: String, _ expected: ExpectedVerdict, _ finding: String?, _ threat: Threat, _ summary: String,
        _ layer: String
    ) -> String {
        let finding = finding.map { " [\($0)]" } ?? ""
        return "  \(TerminalText.column(name, width: 38)) \(expected.rawValue)\(finding) "
            + "[\(threat.attacker.rawValue), \(threat.concern.rawValue)]\n"
            + "      \(summary) (layer: \(layer))\n"
            + "      who: \(threat.why)\n"
    }

    /// The members that say who could make an entry and what accepting it costs.
    static func threat(_ threat: Threat, to json: inout JSONWriter) {
        json.member("attacker", threat.attacker.rawValue)
        json.member("concern", threat.concern.rawValue)
        json.member("threat", threat.why)
        json.member("readers", threat.readers)
    }

    static func json() -> [UInt8] {
        var json = JSONWriter()
        json.object { json in
            json.member("schema", "rcpt.mutation-list/1")
            json.objects("mutations", MutationCatalogue.all + JWSMutationCatalogue.all) { mutation, json in
                json.member("name", mutation.name)
                json.member("group", mutation.group.rawValue)
                json.member("layer", mutation.layer)
                json.member("description", mutation.summary)
                json.member("expected", mutation.expected.rawValue)
                json.member("finding", mutation.finding)
                json.member("signatureValid", mutation.signatureValid)
                threat(mutation.threat, to: &json)
            }
        }
        return json.bytes + [0x0A]
    }
}

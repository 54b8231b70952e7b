import ArgumentParser
import Foundation
import ReceiptConformance
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptFuzzing
import ReceiptInput
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptMutation
import ReceiptRendering
import ReceiptSuite
import ReceiptValidation

/// `rcpt fuzz-validator`: fuzz a user's own validator against `rcpt verify`'s verdict.
struct FuzzValidator: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz-validator",
        abstract: "Fuzz your own receipt or JWS validator against rcpt verify's verdict.",
        discussion: """
            Generates receipts (and JWS) from the seeds by structure-aware mutation — catalogue mutations, two \
            composed, payload edits of attribute values, types, versions, records and claims — re-signed with the \
            TEST-ONLY CA of --ca (--jws-ca for JWS seeds) so they reach your parser; runs your validator on each \
            (a process per input in its own process group with --timeout, --jobs at a time; or with --batch one \
            process reading a path per line and writing a verdict per line: 0/accept/valid, 1/reject/invalid, or no verdict); and \
            compares its verdict with rcpt verify's on the same input, with the seed's bundle id, app version and \
            the test device (a JWS seed's bundle id, environment and, in Production, app Apple id), printed at the \
            start: give your validator the same. --context server judges without the device and the app version, \
            which a server does not know.

            Every disagreement is a finding: accepted-what-rcpt-rejects (with rcpt's finding code), \
            rejected-what-rcpt-accepts (with the edit that made the input), crashed, timed-out or errored, each \
            with who could make its inputs (anyone, a replay of a genuine document, or only the signer) and what \
            accepting them costs (security, policy, robustness). Each group keeps its smallest input (fewest edits \
            of its seed, then fewest bytes), written to --out-dir with a manifest rcpt conformance replays (so a \
            fixed bug stays fixed) and report.json (rcpt.fuzz-validator/1). Deterministic for --seed (but for a JWS finding's \
            signature bytes: ECDSA's nonce is random). Exit 1 when a \
            disagreement of a class not named by --allow was found, as rcpt conformance judges it (an accepted \
            robustness input only with --fail-on robustness; a rejection of what rcpt accepts is over-strict, \
            reported, never a failure), 0 otherwise, 2 on a usage error or when interrupted (SIGINT, SIGTERM, SIGHUP: \
            the validator's processes are stopped and the run's files removed).

            Examples:
              rcpt ca init testca
              rcpt fuzz-validator --ca testca --validator './my-validator --bundle-id com.example.app {}' --runs 2000 real.receipt
              rcpt fuzz-validator --ca testca --batch --validator 'python3 validator.py --stdin' --time 300 --out-dir findings real.receipt
              rcpt conformance --validator './my-validator --bundle-id com.example.app {}' findings
            """
    )

    @Argument(help: ArgumentHelp("Seed receipts or JWS (any wrapper rcpt reads).", valueName: "seed"))
    var seeds: [String] = []

    @OptionGroup var validatorOptions: ValidatorOptions

    @Option(
        help: ArgumentHelp(
            "The CA directory made by `rcpt ca init` that re-signs receipt seeds (not needed when every seed is a JWS).",
            valueName: "dir"))
    var ca: String?

    @Option(
        name: .customLong("jws-ca"),
        help: ArgumentHelp("The CA made by `rcpt ca init --shape jws` that re-signs JWS seeds.", valueName: "dir"))
    var jwsCA: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Stop after this many inputs (default 1000 when --time is not given).", valueName: "n"))
    var runs: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Stop after this many seconds: no input is started after them (a run under way ends within --timeout), and minimising what was found takes at most one --timeout more.",
            valueName: "seconds"))
    var time: Double?

    @Option(
        parsing: .unconditional, help: "Seed of the input generator: the same seed, seeds and CA give the same inputs.")
    var seed: UInt64 = 1

    @Option(
        help: ArgumentHelp(
            "A disagreement class that does not fail the run (repeatable): accepted-what-rcpt-rejects, rejected-what-rcpt-accepts, crashed, timed-out, errored.",
            valueName: "class"))
    var allow: [String] = []

    @Option(
        help: ArgumentHelp(
            "Where the validator runs: device (rcpt checks the device binding and the app version too) or server (rcpt judges without them, as a server that knows neither must).",
            valueName: "context"))
    var context: ValidatorContext = .device

    @Flag(
        help:
            "Judge with the strict judgement (as rcpt verify --strict): malformed values of undocumented receipt attribute types and null JWS claims are errors, not warnings."
    )
    var strict = false

    @Option(name: .customLong("out-dir"), help: ArgumentHelp("Where the findings go.", valueName: "dir"))
    var outDirectoryArgument: String?

    /// --out-dir as it is joined to the findings' names (no trailing slash).
    var outDirectory: String? { outDirectoryArgument.map(InputFiles.directoryPath) }

    @Flag(help: "Replace the suite or findings already in --out-dir (its manifest.json).")
    var force = false

    @Option(
        help:
            "Output format of the summary: text, json (report.json's document), junit (JUnit XML) or sarif (SARIF 2.1.0)."
    )
    var format: GateFormat = .text

    func validate() throws {
        guard !seeds.isEmpty else { throw ValidationError("give at least one seed receipt or JWS") }
        if let runs, runs < 1 { throw ValidationError("--runs must be at least 1") }
        try SecondsOption.check(time, "--time", atMost: SecondsOption.durationLimit)
        if let outDirectory {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: outDirectory, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw ValidationError("--out-dir \(outDirectory) is a file, not a directory")
            }
            if !force, FileManager.default.fileExists(atPath: outDirectory + "/manifest.json") {
                throw ValidationError(
                    "--out-dir \(outDirectory) already holds a suite (manifest.json); use --force to replace it")
            }
        }
        guard ca != nil || jwsCA != nil else {
            throw ValidationError(
                "give the TEST-ONLY CA that re-signs the seeds: --ca DIR for receipts (make one with `rcpt ca init DIR`), --jws-ca DIR for JWS (`rcpt ca init --shape jws DIR`)"
            )
        }
        for name in allow where Disagreement(rawValue: name) == nil {
            throw ValidationError(
                "--allow takes \(Disagreement.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'")
        }
    }

    /// The CA that re-signs receipt seeds: --ca, or with JWS seeds only, --jws-ca (`validate` asks for one).
    var receiptCA: String { ca ?? jwsCA ?? "" }

    func run() throws {
        Interruption.stopValidatorsOnSignal("the campaign")
        try Console.guarded {
            let inputs = try seeds.map { try InputFiles.read($0) }
            let kit: MutationKit
            var jwsKit: MutationKit?
            do throws(CryptoError) {
                kit = try MutationKit.load(
                    from: receiptCA, deviceID: Expectations.parseDeviceID(MutationKit.defaultDeviceID) ?? [])
                if let jwsCA { jwsKit = try MutationKit.load(from: jwsCA, deviceID: []) }
            } catch {
                throw CommandFailure.usage("\(error.message) (make a CA with `rcpt ca init`)")
            }
            let isJWS = { (seed: [UInt8]) in InputClassifier.classify(seed).kind == .jws }
            if ca == nil, inputs.contains(where: { !isJWS($0) }) {
                throw CommandFailure.usage(
                    "a receipt seed is re-signed with --ca DIR (make one with `rcpt ca init DIR`)")
            }
            if inputs.contains(where: isJWS), jwsKit == nil {
                throw CommandFailure.usage(
                    "a JWS seed is re-signed with --jws-ca DIR (make one with `rcpt ca init --shape jws DIR`)")
            }
            // Every seed's baseline must be valid under its CA's own root, as `mutate` requires: against a baseline
            // rcpt rejects (a CA of the wrong shape, a seed that is no receipt or JWS), every input is one rcpt
            // rejects, and a validator that rejects everything would agree with all of them.
            for (index, input) in inputs.enumerated() {
                let kind = InputClassifier.classify(input).kind
                do throws(MutationError) {
                    try BaselineCheck.expectations(
                        of: input, kind: kind, kit: kind == .jws ? jwsKit ?? kit : kit, seed: seed,
                        caDirectory: kind == .jws ? jwsCA ?? receiptCA : receiptCA)
                } catch {
                    throw CommandFailure.unreadable("\(seeds[index]): \(error.message)")
                }
            }
            // The expectations rcpt judges with: the first receipt seed's, the first JWS seed's. A server validator is
            // judged without the device and the app version, which it cannot know.
            let device = context == .device
            var expectations = Expectations(deviceID: device ? kit.deviceID : nil)
            if let receiptSeed = inputs.first(where: { !isJWS($0) }),
                let baseline = try? MutationCatalogue.baseline.apply(to: receiptSeed, kit: kit, seed: seed)
            {
                let receipt = Receipt.read(baseline)
                if case .text(let text)? = receipt.first(.bundleID)?.value { expectations.bundleID = text }
                if case .text(let text)? = receipt.first(.applicationVersion)?.value, device {
                    expectations.appVersion = text
                }
            }
            var receiptOptions = InspectionOptions(
                anchors: try Self.anchors(receiptCA), time: .signed, expectations: expectations)
            var jwsOptions: InspectionOptions?
            var jwsBundle: String?
            if let jwsKit, let jwsCA, let jwsSeed = inputs.first(where: isJWS),
                let context = try? JWSMutationContext.baseline(of: jwsSeed, kit: jwsKit)
            {
                jwsBundle = Self.flags(Self.expectations(context, in: self.context))
                jwsOptions = InspectionOptions(
                    anchors: try Self.anchors(jwsCA), time: .signed,
                    expectations: Self.expectations(context, in: self.context))
            }
            // Each seed's inputs are judged with that seed's own expectations (its bundle id, version; the device).
            var seedOptions: [Int: InspectionOptions] = [:]
            var seedLines: [String] = []
            for (index, input) in inputs.enumerated() {
                if isJWS(input) {
                    guard let jwsKit, let jwsCA, let context = try? JWSMutationContext.baseline(of: input, kit: jwsKit)
                    else { continue }
                    // As Apple's verifier is configured: the app, its environment and, in Production, its Apple id.
                    seedOptions[index] = InspectionOptions(
                        anchors: try Self.anchors(jwsCA), time: .signed,
                        expectations: Self.expectations(context, in: self.context))
                    seedLines.append(
                        "\(seeds[index]): --root \(jwsCA)/root.pem"
                            + Self.flags(Self.expectations(context, in: self.context)))
                } else if let baseline = try? MutationCatalogue.baseline.apply(to: input, kit: kit, seed: seed) {
                    var own = Expectations(deviceID: device ? kit.deviceID : nil)
                    let receipt = Receipt.read(baseline)
                    if case .text(let text)? = receipt.first(.bundleID)?.value { own.bundleID = text }
                    if case .text(let text)? = receipt.first(.applicationVersion)?.value, device {
                        own.appVersion = text
                    }
                    seedOptions[index] = InspectionOptions(
                        anchors: try Self.anchors(receiptCA), time: .signed, expectations: own)
                    seedLines.append(
                        "\(seeds[index]): --root \(receiptCA)/root.pem"
                            + (own.bundleID.map { " --bundle-id \($0)" } ?? "")
                            + (own.appVersion.map { " --app-version \($0)" } ?? "")
                            + (device ? " --device-id \(kit.deviceIDText)" : ""))
                }
            }
            if Set(seedLines.map { $0.split(separator: ":", maxSplits: 1).last.map(String.init) ?? $0 }).count > 1 {
                Console.error(
                    "rcpt judges each seed's inputs with its own expectations; give your validator the same:\n  "
                        + seedLines.joined(separator: "\n  "))
            } else if ca == nil, let jwsCA {
                Console.error(
                    "rcpt judges with --root \(jwsCA)/root.pem\(jwsBundle ?? ""): give your validator the same")
            } else {
                Console.error(
                    "rcpt judges with --root \(receiptCA)/root.pem"
                        + (expectations.bundleID.map { " --bundle-id \($0)" } ?? "")
                        + (expectations.appVersion.map { " --app-version \($0)" } ?? "")
                        + (device ? " --device-id \(kit.deviceIDText)" : "")
                        + (jwsCA.map { "; JWS: --root \($0)/root.pem" + (jwsBundle ?? "") } ?? "")
                        + ": give your validator the same")
            }
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
                "rcpt-fuzz-\(UUID().uuidString)"
            ).path
            ValidatorProcesses.keep(scratch: scratch)
            defer {
                try? FileManager.default.removeItem(atPath: scratch)
                ValidatorProcesses.forget(scratch: scratch)
            }
            if strict {
                receiptOptions.strict = true
                jwsOptions?.strict = true
                for index in seedOptions.keys { seedOptions[index]?.strict = true }
            }
            var options = ValidatorCampaign.Options(
                command: validatorOptions.validator ?? "", timeout: validatorOptions.timeout,
                rejectCodes: validatorOptions.rejectCodes?.statuses,
                jobs: validatorOptions.processes, runs: runs, seconds: time, batch: validatorOptions.batch)
            options.target = try validatorOptions.endpoint.validator(timeout: validatorOptions.timeout)
            var campaign = ValidatorCampaign(
                options: options, generator: FuzzInputGenerator(seeds: inputs, kit: kit, jwsKit: jwsKit, seed: seed),
                receiptOptions: receiptOptions, jwsOptions: jwsOptions, seedOptions: seedOptions, scratch: scratch)
            let showProgress = isatty(STDERR_FILENO) != 0
            let summary = try campaign.run { done, groups in
                guard showProgress else { return }
                Console.standardError("\r\(done) inputs, \(groups) disagreement group(s)")
            }
            if showProgress { Console.standardError("\n") }
            let gate = CampaignGate(
                allowed: Set(allow.compactMap(Disagreement.init(rawValue:))),
                gate: validatorOptions.gate)
            if let outDirectory {
                let manifestExpectations = ManifestExpectations(
                    bundleID: expectations.bundleID, appVersion: expectations.appVersion, deviceID: kit.deviceIDText,
                    context: context.rawValue, root: ShellWords.absolute(receiptCA + "/root.pem"),
                    validator: validatorOptions.name)
                try CampaignReport.write(
                    summary, gate: gate, expectations: manifestExpectations, seed: seed, seeds: seeds,
                    to: outDirectory)
            }
            switch format {
            case .json:
                Console.write(
                    CampaignReport.json(summary, gate: gate, seed: seed, seeds: seeds, directory: outDirectory))
            case .junit, .sarif:
                Console.write(
                    format.ciDocument(
                        CIReport.campaign(
                            summary, seeds: seeds, validator: validatorOptions.name,
                            gate: gate, directory: outDirectory)) ?? [])
            case .text:
                Console.write(
                    Array(
                        CampaignReport.text(
                            summary, gate: gate, seeds: seeds, directory: outDirectory,
                            validator: validatorOptions.name
                        ).utf8))
                if let outDirectory, !summary.groups.isEmpty {
                    Console.write(
                        Array(
                            "\nfindings in \(outDirectory); replay them: rcpt conformance \(validatorOptions.arguments.map(ShellWords.quoted).joined(separator: " ")) \(ShellWords.quoted(outDirectory))\n"
                                .utf8))
                }
            }
            return gate.fails(summary) ? 1 : 0
        }
    }

    /// A JWS seed's expectations in `context`: a server's without the device and the app version.
    static func expectations(_ seed: JWSMutationContext, in context: ValidatorContext) -> Expectations {
        var expectations = seed.expectations
        if context == .server {
            expectations.deviceID = nil
            expectations.appVersion = nil
        }
        return expectations
    }

    /// A JWS seed's expectations as `rcpt verify`'s options: what the validator must be told too.
    static func flags(_ expectations: Expectations) -> String {
        (expectations.bundleID.map { " --bundle-id \($0)" } ?? "")
            + (expectations.appAppleID.map { " --app-apple-id \($0)" } ?? "")
            + (expectations.appVersion.map { " --app-version \($0)" } ?? "")
            + (expectations.environment.map { " --environment \($0.rawValue)" } ?? "")
    }

    static func anchors(_ directory: String) throws -> TrustAnchors {
        do {
            return try TrustAnchors.load(files: [directory + "/root.pem"])
        } catch {
            throw CommandFailure.usage(error.message)
        }
    }
}

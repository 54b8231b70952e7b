import Dispatch
import Foundation
import ReceiptBatch
import ReceiptConformance
import ReceiptDiagnostics
import ReceiptInput
import ReceiptJWS
import ReceiptModel
import ReceiptMutation
import ReceiptSuite
import ReceiptValidation

/// How a validator's verdict on an input disagrees with `rcpt verify`'s.
public enum Disagreement: String, Sendable, Hashable, CaseIterable, Codable {
    /// The validator accepted an input `rcpt verify` rejects.
    case acceptedWhatRcptRejects = "accepted-what-rcpt-rejects"
    /// The validator rejected an input `rcpt verify` accepts.
    case rejectedWhatRcptAccepts = "rejected-what-rcpt-accepts"
    case crashed
    case timedOut = "timed-out"
    /// Exited with a status outside `--reject-codes`, or could not run.
    case errored
}

/// `rcpt verify`'s verdict on a generated input: valid or not, its error codes (the first names the group).
public struct ReferenceVerdict: Sendable, Hashable {
    public var isValid: Bool
    public var codes: [String]

    package init(isValid: Bool, codes: [String]) {
        self.isValid = isValid
        self.codes = codes
    }

    /// `rcpt verify`'s verdict on a document: when invalid, the read error and the error codes; when valid, the
    /// warning codes.
    package init(_ document: Inspection) {
        isValid = document.isValid
        codes =
            isValid ? document.codes(.warning) : (document.readError.map { [$0.code] } ?? []) + document.codes(.error)
    }

    /// The code a disagreement is grouped under: the first error, else the first warning, else `valid`.
    package var groupCode: String { codes.first ?? (isValid ? "valid" : "unreadable") }
}

/// A seed re-signed unchanged, `rcpt verify`'s verdict on it, and the validator's run: what the campaign stands on.
package struct SeedBaseline: Sendable {
    package var input: GeneratedInput
    package var verdict: ReferenceVerdict
    package var run: ValidatorRun

    /// Whether the validator rejected (or failed on) a seed `rcpt verify` accepts: its options are wrong, and every
    /// disagreement found with it would blame a mutation for what the seed itself does.
    package var refused: Bool { verdict.isValid && run.outcome != .accepted }
}

/// What a campaign did.
package struct CampaignSummary: Sendable {
    /// The seeds re-signed unchanged, each run first.
    package var baselines: [SeedBaseline] = []
    package var runs: Int
    package var seconds: Double
    package var groups: [DisagreementGroup]
    /// Inputs per class (every input, not only representatives).
    package var counts: [Disagreement: Int]
    package var agreed: Int
}

/// Fuzzes a user's validator against `rcpt verify`: generates inputs from seeds (`FuzzInputGenerator`), judges each
/// with `rcpt verify`'s checks under the expectations of its seed, runs the validator on it (a process per input in
/// its own group with a timeout, `jobs` at a time, or one persistent `--batch` process reading paths), and groups
/// every disagreement by class and finding code, keeping the smallest input of each group. Deterministic for a seed
/// (up to timeouts).
package struct ValidatorCampaign {
    package struct Options: Sendable {
        package var command: String
        package var timeout: Double
        package var rejectCodes: Set<Int32>?
        package var jobs: Int
        package var runs: Int?
        package var seconds: Double?
        package var batch: Bool
        /// A validator that is no command (an HTTP endpoint): when set, `command` and `batch` are not used.
        package var target: (any DocumentValidator)?

        package init(
            command: String, timeout: Double = 10, rejectCodes: Set<Int32>? = nil, jobs: Int = 1,
            runs: Int? = nil, seconds: Double? = nil, batch: Bool = false
        ) {
            self.command = command
            self.timeout = timeout
            self.rejectCodes = rejectCodes
            self.jobs = max(1, jobs)
            self.runs = runs
            self.seconds = seconds
            self.batch = batch
        }
    }

    package let options: Options
    package var generator: FuzzInputGenerator
    /// The receipt inspection options (root of the kit, expectations of the first receipt seed).
    let receiptOptions: InspectionOptions
    let jwsOptions: InspectionOptions?
    /// Per seed index, the options its inputs are judged with (its own bundle id, version and device).
    let seedOptions: [Int: InspectionOptions]
    let scratch: String

    package init(
        options: Options, generator: FuzzInputGenerator, receiptOptions: InspectionOptions,
        jwsOptions: InspectionOptions?, seedOptions: [Int: InspectionOptions] = [:], scratch: String
    ) {
        self.options = options
        self.generator = generator
        self.receiptOptions = receiptOptions
        self.jwsOptions = jwsOptions
        self.seedOptions = seedOptions
        self.scratch = scratch
    }

    var referee: Judge { Judge(receiptOptions: receiptOptions, jwsOptions: jwsOptions, seedOptions: seedOptions) }

    /// `rcpt verify`'s verdict on `input`, under its seed's expectations.
    package func judge(_ input: GeneratedInput) -> ReferenceVerdict { referee.verdict(input) }

    /// The class of a disagreement, or nil when the validator agrees with `rcpt verify`.
    package static func classify(_ outcome: RunOutcome, reference: ReferenceVerdict) -> Disagreement? {
        switch outcome {
        case .accepted: return reference.isValid ? nil : .acceptedWhatRcptRejects
        case .rejected, .refused: return reference.isValid ? .rejectedWhatRcptAccepts : nil
        case .crashed, .raised, .serverError: return .crashed
        case .timedOut: return .timedOut
        case .errored, .couldNotRun, .unreadableAnswer, .lineNotAskedFor, .unreachable: return .errored
        }
    }

    /// One run of the validator on `path`: the endpoint, the batch process, or the command in its own process group.
    static func run(_ options: Options, on path: String, batch: BatchValidator?) -> ValidatorRun {
        if let target = options.target { return target.run(path) }
        if let batch { return batch.run(path) }
        return
            (try? ConformanceRunner.runShell(
                ConformanceRunner.commandLine(options.command, path: path), timeout: options.timeout,
                rejectCodes: options.rejectCodes)) ?? couldNotRun
    }

    /// Runs the validator on each seed re-signed unchanged, with `rcpt verify`'s verdict on it.
    package func runBaselines() -> [SeedBaseline] {
        generator.baselines().enumerated().compactMap { index, input in
            guard let input else { return nil }
            let path = scratch + "/baseline-\(index)" + (input.isJWS ? ".jws" : ".receipt")
            FileManager.default.createFile(atPath: path, contents: Data(input.bytes))
            defer { unlink(path) }
            let run: ValidatorRun
            if options.batch && options.target == nil {
                let batch = try? BatchValidator(command: options.command, timeout: options.timeout)
                run = batch?.run(path) ?? Self.couldNotRun
                batch?.stop()
            } else {
                run = Self.run(options, on: path, batch: nil)
            }
            return SeedBaseline(input: input, verdict: judge(input), run: run)
        }
    }

    /// Runs the campaign; `progress` is told the runs done and the groups found so far. The seeds' baselines run
    /// first: when the validator refuses one `rcpt verify` accepts, the campaign stops there (the summary holds the
    /// baselines and no run), since every disagreement would then be the seed's, not a mutation's.
    package mutating func run(progress: (Int, Int) -> Void = { _, _ in }) throws -> CampaignSummary {
        // `--time` counts from here: no input is started after it, whatever the validator does.
        let deadline = options.seconds.map { Date().addingTimeInterval($0) }
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let baselines = runBaselines()
        if baselines.contains(where: \.refused) {
            return CampaignSummary(baselines: baselines, runs: 0, seconds: 0, groups: [], counts: [:], agreed: 0)
        }
        var summary = try campaign(until: deadline, progress: progress)
        summary.baselines = baselines
        return summary
    }

    /// Inputs until `options.runs` are run or `deadline` passes (none is started after it: a run under way ends
    /// within its timeout), then the minimising of each group's representative, for at most one timeout more.
    mutating func campaign(until deadline: Date?, progress: (Int, Int) -> Void) throws -> CampaignSummary {
        let started = Date()
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        var groups: [String: DisagreementGroup] = [:]
        var order: [String] = []
        var counts: [Disagreement: Int] = [:]
        var runs = 0
        var agreed = 0
        let batchValidator =
            options.batch && options.target == nil
            ? try BatchValidator(command: options.command, timeout: options.timeout) : nil
        @Sendable func pastDeadline() -> Bool { deadline.map { Date() >= $0 } ?? false }
        func done() -> Bool {
            if let limit = options.runs, runs >= limit { return true }
            if pastDeadline() { return true }
            return options.runs == nil && options.seconds == nil && runs >= 1000
        }
        var attempts = 0
        while !done() {
            // A round: up to 4 × jobs inputs, generated in order (deterministic), judged and run in parallel.
            var round: [GeneratedInput] = []
            let size = min(options.jobs * 4, (options.runs ?? Int.max) - runs)
            while round.count < size, attempts < (runs + size) * 50 + 1000 {
                attempts += 1
                if let input = generator.next() { round.append(input) }
            }
            guard !round.isEmpty else { break }
            let paths = round.enumerated().map { index, input in
                scratch + "/input-\(runs + index)" + (input.isJWS ? ".jws" : ".receipt")
            }
            for (path, input) in zip(paths, round) {
                FileManager.default.createFile(atPath: path, contents: Data(input.bytes))
            }
            let judged = round
            let judge = referee
            let verdicts = Parallel.map(judged.count, jobs: options.jobs) { judge.verdict(judged[$0]) }
            // Each input's run and when it ended; nil for one not started because the deadline had passed.
            let outcomes: [(run: ValidatorRun, ended: Date)?]
            if let batchValidator {
                outcomes = paths.map { path in pastDeadline() ? nil : (batchValidator.run(path), Date()) }
            } else {
                let options = options
                outcomes = Parallel.map(round.count, jobs: options.jobs) { index in
                    pastDeadline() ? nil : (Self.run(options, on: paths[index], batch: nil), Date())
                }
            }
            for path in paths { unlink(path) }
            for index in round.indices {
                guard let (run, ended) = outcomes[index] else { continue }
                runs += 1
                guard let kind = Self.classify(run.outcome, reference: verdicts[index]) else {
                    agreed += 1
                    continue
                }
                counts[kind, default: 0] += 1
                let code = DisagreementGroup.code(kind, input: round[index], verdict: verdicts[index], run: run)
                let key = kind.rawValue + "/" + code
                if var group = groups[key] {
                    group.count += 1
                    if group.prefers(round[index], verdict: verdicts[index]) {
                        group.representative = round[index]
                        group.verdict = verdicts[index]
                        group.run = run
                    }
                    groups[key] = group
                } else {
                    order.append(key)
                    groups[key] = DisagreementGroup(
                        kind: kind, code: code, count: 1,
                        representative: round[index], verdict: verdicts[index],
                        run: run, firstInput: runs,
                        firstSeconds: ended.timeIntervalSince(started))
                }
            }
            progress(runs, groups.count)
        }
        // Minimise: a representative made by several edits gives way to one of its edits alone that still
        // disagrees the same way (same class; for a wrong verdict the same finding code). A crash, hang or error then
        // takes the name of the edit that alone causes it, and groups that come to share a cause merge.
        let minimisingEnds = deadline.map { $0.addingTimeInterval(options.timeout) }
        for key in order {
            guard var group = groups[key], !group.representative.components.isEmpty else { continue }
            // A wrong acceptance keeps its finding code; any other disagreement is named by its cause.
            let byVerdict = group.kind == .acceptedWhatRcptRejects
            for component in group.representative.components.sorted(by: { Self.smaller($0, than: $1) }) {
                if let minimisingEnds, Date() >= minimisingEnds { break }
                let path = scratch + "/minimise" + (component.isJWS ? ".jws" : ".receipt")
                FileManager.default.createFile(atPath: path, contents: Data(component.bytes))
                defer { unlink(path) }
                let verdict = judge(component)
                let run = Self.run(options, on: path, batch: batchValidator)
                // The same disagreement: for a wrong acceptance the same finding code; for a wrong rejection the
                // same class; for a crash, hang or error the same ending (a SIGSEGV never gives way to a traceback).
                if Self.classify(run.outcome, reference: verdict) == group.kind,
                    !group.graver(than: component, verdict: verdict),
                    byVerdict
                        ? verdict.groupCode == group.code
                        : group.kind == .rejectedWhatRcptAccepts || run.outcome.ending == group.run.outcome.ending
                {
                    group.representative = component
                    group.verdict = verdict
                    group.run = run
                    if !byVerdict {
                        group.code = DisagreementGroup.code(group.kind, input: component, verdict: verdict, run: run)
                    }
                    break
                }
            }
            groups[key] = group
        }
        // Groups whose minimised causes are one and the same become one: counts added, the earliest first hit, the
        // smallest representative.
        var merged: [String: DisagreementGroup] = [:]
        var mergedOrder: [String] = []
        for key in order {
            guard let group = groups[key] else { continue }
            guard var known = merged[group.key] else {
                merged[group.key] = group
                mergedOrder.append(group.key)
                continue
            }
            known.count += group.count
            if group.firstInput < known.firstInput {
                known.firstInput = group.firstInput
                known.firstSeconds = group.firstSeconds
            }
            if known.prefers(group.representative, verdict: group.verdict) {
                known.representative = group.representative
                known.verdict = group.verdict
                known.run = group.run
            }
            merged[group.key] = known
        }
        groups = merged
        order = mergedOrder
        batchValidator?.stop()
        return CampaignSummary(
            runs: runs, seconds: Date().timeIntervalSince(started),
            groups: order.compactMap { groups[$0] }, counts: counts, agreed: agreed)
    }

    static let couldNotRun = ValidatorRun(
        outcome: .couldNotRun(status: 127), seconds: 0, stderrTail: "", stdoutTail: "")

    /// Fewer edits of the seed first, then fewer bytes.
    static func smaller(_ candidate: GeneratedInput, than current: GeneratedInput) -> Bool {
        (candidate.edits.count, candidate.bytes.count) < (current.edits.count, current.bytes.count)
    }
}

/// `rcpt verify`'s checks, as the campaign judges with them: each input under the expectations of the seed it was
/// made from (its bundle id, version and device; a JWS seed's bundle id), else those of its kind.
struct Judge: Sendable {
    let receiptOptions: InspectionOptions
    let jwsOptions: InspectionOptions?
    /// Per seed index, the options its inputs are judged with.
    var seedOptions: [Int: InspectionOptions] = [:]

    /// The input as `rcpt verify` judges the file the validator is given: found by the one classifier, read by the
    /// reader of its kind, under its seed's expectations.
    func verdict(_ input: GeneratedInput) -> ReferenceVerdict {
        let classified = InputClassifier.classify(input.bytes)
        var options =
            seedOptions[input.seed] ?? (classified.kind == .jws ? jwsOptions ?? receiptOptions : receiptOptions)
        // A receipt made from a JWS seed (or the reverse) is judged with the anchors of its own kind.
        if seedOptions[input.seed] != nil, (classified.kind == .jws) != input.isJWS {
            options = classified.kind == .jws ? jwsOptions ?? options : receiptOptions
        }
        options.digestsInput = false
        return ReferenceVerdict(Inspector.inspect(classified, input: input.bytes, options: options))
    }
}

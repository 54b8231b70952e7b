import Foundation
import ReceiptTestSupport
import Testing

/// `scripts/fuzz.sh` says "ok" only for a harness that ran: one that is missing or cannot start is "never-ran", and
/// the run fails (a gate must not turn green on a harness that never executed an input).
@Suite("The fuzz script's gate")
struct FuzzScriptTests {
    @Test func aHarnessThatNeverRanFailsTheRun() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-fuzz-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (status, text) = try CLI.process(
            "/bin/bash", [Fixtures.url("scripts/fuzz.sh").path, "--regressions", "--no-build"],
            adding: [
                "FUZZ_SCRATCH": scratch.path,
                "FUZZ_WORK": scratch.appendingPathComponent("work").path,
            ])
        #expect(status == 1, "\(text.suffix(400))")
        #expect(text.contains("fails in attributes: never-ran"), "\(text.suffix(400))")
        #expect(!text.contains(" ok\n"), "\(text.suffix(400))")
    }
}

/// `scripts/fuzz-words.py` reads the words a harness compares with from its disassembly: a string literal's first
/// machine word as text, an integer as digits (named int64_N when compared as a 64-bit integer), through a register
/// move; the word compared next after a name as that member's value; a zeroed argument and one-digit numbers as
/// nothing.
@Suite("Words harvested from a harness's comparisons")
struct FuzzWordsTests {
    @Test func operandsOfConstantComparisonsBecomeWordsAndPairs() throws {
        let disassembly = """
            0000000000546480 <$s10ReceiptJWS9JWSReaderO14headerFindings>:
              546490:      \tmovabsq\t$0x64696b, %r15
              546495:      \tmovq\t%r15, %rdi
              546498:      \tmovq\t%rax, %rsi
              54649b:      \tcallq\t0x336020 <__sanitizer_cov_trace_const_cmp8>
              5464a0:      \tmovabsq\t$0x312d74706372, %rdi
              5464aa:      \tmovq\t%rbx, %rsi
              5464ad:      \tcallq\t0x336020 <__sanitizer_cov_trace_const_cmp8>
              5464b2:      \tmovl\t$0x1092, %edi
              5464b7:      \tcallq\t0x336030 <__sanitizer_cov_trace_const_cmp4>
              5464bc:      \txorl\t%edi, %edi
              5464be:      \tcallq\t0x336020 <__sanitizer_cov_trace_const_cmp8>
              5464c3:      \tmovl\t$0x7, %edi
              5464c8:      \tcallq\t0x336030 <__sanitizer_cov_trace_const_cmp4>

            0000000000546500 <$s10ReceiptJWS11AppleClaimsO12typeFindings>:
              546510:      \tmovabsq\t$0x7974697469746e61, %rdi
              54651a:      \tcallq\t0x336020 <__sanitizer_cov_trace_const_cmp8>

            0000000000546600 <$s12ReceiptModel12RecordChecksV5check>:
              54661f:      \tmovl\t$0x3e9, %edi
              546624:      \tcallq\t0x336020 <__sanitizer_cov_trace_const_cmp8>

            """
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-words-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("harness.txt")
        let committed = folder.appendingPathComponent("committed.dict")
        let output = folder.appendingPathComponent("harness.dict")
        try Data(disassembly.utf8).write(to: input)
        try Data("header_kid=\"\\\"kid\\\":\"\n".utf8).write(to: committed)
        let (status, text) = try CLI.process(
            "/usr/bin/env",
            [
                "python3", Fixtures.url("scripts/fuzz-words.py").path, "--disassembly", input.path, committed.path,
                output.path,
            ])
        #expect(status == 0, "\(text)")
        let written = try String(contentsOf: output, encoding: .utf8)
        let entries = written.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(
            entries == [
                #"header_kid="\"kid\":""#, #"cmp_0="kid""#, #"cmp_1="rcpt-1""#, #"cmp_2="4242""#,
                #"cmp_3="antitity""#, #"int64_4="1001""#, #"value_of_kid_0="rcpt-1""#,
            ], "\(written)")
    }
}

/// The planted-bug benchmark runs on demand in GitHub Actions: the workflow passes its inputs as flags the script
/// takes, and the script refuses a flag it does not know with its usage (exit 2) before building anything.
@Suite("The planted-bug benchmark on demand")
struct FuzzBenchWorkflowTests {
    @Test func theWorkflowPassesFlagsTheScriptTakes() throws {
        let workflow = try String(contentsOf: Fixtures.url(".github/workflows/fuzz-bench.yml"), encoding: .utf8)
        #expect(workflow.contains("workflow_dispatch:"))
        #expect(workflow.contains("scripts/fuzz-bench.sh \"$@\""))
        let (status, usage) = try CLI.process(
            "/bin/bash", [Fixtures.url("scripts/fuzz-bench.sh").path, "--no-such-flag"])
        #expect(status == 2, "\(usage)")
        for flag in ["--time", "--seed", "--only"] {
            #expect(workflow.contains("\(flag) \""), "the workflow passes \(flag)")
            #expect(usage.contains("[\(flag) "), "fuzz-bench.sh takes \(flag): \(usage)")
        }
        let bugs = try String(contentsOf: Fixtures.url("Fuzz/planted/bugs.tsv"), encoding: .utf8)
        #expect(bugs.split(separator: "\n").filter { !$0.hasPrefix("#") }.count >= 9)
        #expect(usage.contains("[--proofs]"), "fuzz-bench.sh checks the proofs on its own: \(usage)")
    }

    /// Every planted bug has its patch and a proof (an input that reaches it) named for one of the harnesses that
    /// fuzz it; `scripts/fuzz-bench.sh --proofs` replays them (a build per harness: too slow for a test).
    @Test func everyBugHasAPatchAndAProofForOneOfItsHarnesses() throws {
        let bugs = try String(contentsOf: Fixtures.url("Fuzz/planted/bugs.tsv"), encoding: .utf8)
        let proofs = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("Fuzz/planted/proofs").path)
        for line in bugs.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 3 else {
                Issue.record("bugs.tsv: \(line) is not name, harnesses, what")
                continue
            }
            let (bug, harnesses) = (fields[0], fields[1].split(separator: " ").map(String.init))
            #expect(FileManager.default.fileExists(atPath: Fixtures.url("Fuzz/planted/\(bug).patch").path), "\(bug)")
            let own = proofs.filter { $0.hasPrefix(bug + ".") }
            #expect(!own.isEmpty, "\(bug) has no proof in Fuzz/planted/proofs/")
            for proof in own {
                #expect(harnesses.contains(String(proof.dropFirst(bug.count + 1))), "\(proof): not one of \(harnesses)")
            }
        }
    }
}

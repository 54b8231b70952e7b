import Foundation
import ReceiptConformance
import ReceiptHTTP
import ReceiptPKCS7
import ReceiptServe
import ReceiptSuite
import ReceiptTestSupport
import Testing

/// Each branch of the judgement of one backend decision, from synthetic exchanges.
@Suite("Backend judgement")
struct BackendJudgementTests {
    static func scenario(_ name: String) throws -> VerifyReceiptScenario {
        try #require(VerifyReceiptScenario.named(name))
    }

    static func call(_ path: String, apple: Int?, sequence: Int = 1) -> StandInLogEntry {
        StandInLogEntry(
            sequence: sequence, milliseconds: 0, method: "POST", path: path, requestBytes: 10, scenario: "x",
            answer: StandInAnswer(
                httpStatus: 200, contentType: "application/json", body: [], summary: "", appleStatus: apple))
    }

    static func verdict(_ name: String, _ outcome: RunOutcome, _ calls: [StandInLogEntry]) throws
        -> BackendJudgement.Verdict
    {
        let exchange = HTTPTarget.Exchange(status: 200, body: "", seconds: 0, outcome: outcome)
        return BackendJudgement.judge(try scenario(name), exchange, calls: calls).verdict
    }

    @Test("granting the genuine answer passes; granting without asking Apple, or on an unretried 21007, does not")
    func grants() throws {
        let production = Self.call("/verifyReceipt", apple: 0)
        let told = Self.call("/verifyReceipt", apple: 21007)
        let sandbox = Self.call("/sandbox/verifyReceipt", apple: 0, sequence: 2)
        #expect(try Self.verdict("genuine", .accepted, [production]) == .pass)
        #expect(try Self.verdict("genuine", .accepted, [told, sandbox]) == .pass)
        #expect(try Self.verdict("genuine", .accepted, []) == .falseValid)
        #expect(try Self.verdict("genuine", .accepted, [told]) == .falseValid)
        #expect(try Self.verdict("sandbox-retry", .accepted, [told]) == .falseValid)
        #expect(try Self.verdict("other-bundle-id", .accepted, [production]) == .falseValid)
        // A grant after an unretried 21007 is exploitable by anyone with a sandbox tester account.
        let exchange = HTTPTarget.Exchange(status: 200, body: "", seconds: 0, outcome: .accepted)
        let result = BackendJudgement.judge(try Self.scenario("genuine"), exchange, calls: [told])
        #expect(result.attacker == .anyone)
        #expect(result.threat.contains("sandbox"))
    }

    @Test("a backend that never called the stand-in, or cannot be reached, is a setup problem, not a verdict")
    func setupProblems() throws {
        let refused = HTTPTarget.Exchange(status: 503, body: "", seconds: 0, outcome: .serverError(httpStatus: 503))
        let silent = BackendJudgement(results: [
            BackendJudgement.judge(try Self.scenario("genuine"), refused, calls: [])
        ])
        #expect(silent.setupProblem?.contains("without asking the stand-in") == true)
        #expect(silent.outcome == .noJudgement)
        let unreachable = HTTPTarget.Exchange(
            status: nil, body: "", seconds: 0, outcome: .unreachable(reason: "connection refused"))
        let down = BackendJudgement(results: [
            BackendJudgement.judge(try Self.scenario("genuine"), unreachable, calls: [])
        ])
        #expect(down.setupProblem?.contains("connection refused") == true)
        let asked = BackendJudgement(results: [
            BackendJudgement.judge(
                try Self.scenario("genuine"), refused, calls: [Self.call("/verifyReceipt", apple: 0)])
        ])
        #expect(asked.setupProblem == nil)
    }

    @Test("a grant without asking, after asking before, is a remembered verdict: not judged, never a false valid")
    func cachedGrants() throws {
        let exchange = HTTPTarget.Exchange(status: 200, body: "", seconds: 0, outcome: .accepted)
        for name in ["sandbox-retry", "status-21003", "other-bundle-id", "subscription-lapsed"] {
            let result = BackendJudgement.judge(try Self.scenario(name), exchange, calls: [], askedBefore: true)
            #expect(result.verdict == .notJudged, "\(name)")
            #expect(!result.verdict.failed)
        }
        // Asking this time is judged as ever, whatever came before.
        let production = Self.call("/verifyReceipt", apple: 0)
        #expect(
            BackendJudgement.judge(
                try Self.scenario("other-bundle-id"), exchange, calls: [production], askedBefore: true
            )
            .verdict == .falseValid)
        let genuine = BackendJudgement.judge(try Self.scenario("genuine"), exchange, calls: [production])
        let cached = BackendJudgement.judge(try Self.scenario("status-21003"), exchange, calls: [], askedBefore: true)
        let judgement = BackendJudgement(results: [genuine, cached])
        #expect(judgement.passed)
        #expect(judgement.setupProblem == nil)
        #expect(judgement.unjudged?.contains("1 scenario not judged (status-21003)") == true)
    }

    @Test("a refusal without asking, after asking before, is a remembered one: not judged, never a pass")
    func cachedRefusals() throws {
        let refused = HTTPTarget.Exchange(status: 403, body: "", seconds: 0, outcome: .refused(httpStatus: 403))
        for name in ["status-21003", "other-bundle-id", "no-purchases", "subscription-lapsed", "sandbox-retry"] {
            let result = BackendJudgement.judge(try Self.scenario(name), refused, calls: [], askedBefore: true)
            #expect(result.verdict == .notJudged, "\(name)")
        }
        // The genuine answer refused without a call: not pointed at the stand-in, or a remembered refusal.
        let genuine = BackendJudgement.judge(try Self.scenario("genuine"), refused, calls: [])
        #expect(genuine.verdict == .notJudged)
        #expect(BackendJudgement(results: [genuine]).outcome == .noJudgement)
        // Asking this time is judged as ever.
        let told = Self.call("/verifyReceipt", apple: 21003)
        #expect(
            BackendJudgement.judge(try Self.scenario("status-21003"), refused, calls: [told], askedBefore: true)
                .verdict == .pass)
    }

    @Test("the outcome: passed, failed, not judged, no judgement")
    func outcomes() throws {
        let granted = HTTPTarget.Exchange(status: 200, body: "", seconds: 0, outcome: .accepted)
        let production = Self.call("/verifyReceipt", apple: 0)
        let genuine = BackendJudgement.judge(try Self.scenario("genuine"), granted, calls: [production])
        let falseValid = BackendJudgement.judge(try Self.scenario("other-bundle-id"), granted, calls: [production])
        let cached = BackendJudgement.judge(try Self.scenario("status-21003"), granted, calls: [], askedBefore: true)
        #expect(BackendJudgement(results: [genuine]).outcome == .passed)
        #expect(BackendJudgement(results: [genuine, cached]).outcome == .notJudged)
        #expect(BackendJudgement(results: [genuine, cached, falseValid]).outcome == .failed)
        let json = BackendJudgement(results: [genuine, cached]).json(backend: "b", receipt: "r", pretty: false)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""passed":false"#) && text.contains(#""outcome":"not-judged""#), "\(text)")
    }

    @Test("the genuine answer granted without asking: a forged copy granted too is a false valid, refused not judged")
    func unaskedGenuine() throws {
        let granted = HTTPTarget.Exchange(status: 200, body: "", seconds: 0, outcome: .accepted)
        let refused = HTTPTarget.Exchange(status: 403, body: "", seconds: 0, outcome: .refused(httpStatus: 403))
        let genuine = BackendJudgement.judge(try Self.scenario("genuine"), granted, calls: [])
        let blind = BackendJudgement.judgeUnasked(genuine, forged: granted, calls: [])
        #expect(blind.verdict == .falseValid)
        #expect(blind.attacker == .anyone)
        #expect(blind.explanation.contains("does not verify"))
        let elsewhere = BackendJudgement.judgeUnasked(
            genuine, forged: refused, calls: [Self.call("/verifyReceipt", apple: 21003)])
        #expect(elsewhere.verdict == .notJudged)
        #expect(elsewhere.calls.isEmpty && elsewhere.forgedCalls.count == 1)
        #expect(BackendJudgement(results: [elsewhere]).setupProblem?.contains("forged copy") == true)
        #expect(BackendJudgement(results: [blind]).setupProblem == nil)
    }

    @Test("a receipt's forgery changes one character of its signed content, in the form the receipt came in")
    func receiptForgery() throws {
        let der = Fixtures.bytes("Corpus/receipts/tpinappreceipt-sandbox-g5.receipt")
        let forged = BackendJudgement.forgery(of: der)
        #expect(forged.count == der.count)
        let changed = zip(der, forged).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(changed.count == 1)
        let payload = try #require(SignedDataReader.read(der).signedData.encapsulatedContent?.segments.first)
        #expect(changed.allSatisfy { payload.contains($0.offset) }, "changed at \(changed.map(\.offset))")
        // Base64 in, base64 out, decoding to the forged DER.
        let text = Array(Data(der).base64EncodedString().utf8)
        let forgedText = BackendJudgement.forgery(of: text)
        #expect(Data(base64Encoded: Data(forgedText)).map { Array($0) } == forged)
        for byte in Array("AZaz09".utf8) {
            let other = BackendJudgement.replacement(for: byte)
            #expect(other != byte && BackendJudgement.isLetterOrDigit(other))
        }
    }

    @Test("a forgery differs from the receipt in one byte, and stays base64 when the receipt is")
    func forgery() throws {
        let text = Array("MIIBAAAA+/==\n".utf8)
        let forged = BackendJudgement.forgery(of: text)
        #expect(zip(text, forged).filter { $0 != $1 }.count == 1)
        #expect(Data(base64Encoded: String(decoding: forged, as: UTF8.self).trimmingCharacters(in: .newlines)) != nil)
        let der: [UInt8] = [0x30, 0x03, 0x02, 0x01, 0x05]
        #expect(zip(der, BackendJudgement.forgery(of: der)).filter { $0 != $1 }.count == 1)
        #expect(!BackendJudgement.forgery(of: []).isEmpty)
    }

    @Test("refusing: right for a must-refuse answer, a false invalid for the genuine one")
    func refusals() throws {
        let production = Self.call("/verifyReceipt", apple: 0)
        #expect(try Self.verdict("status-21003", .refused(httpStatus: 403), [production]) == .pass)
        #expect(try Self.verdict("genuine", .refused(httpStatus: 403), [production]) == .falseInvalid)
        #expect(try Self.verdict("sandbox-retry", .refused(httpStatus: 403), [production]) == .falseInvalid)
    }

    @Test("502–504 while Apple is unavailable is a refusal; 500, or any 5xx otherwise, a crash")
    func serverErrors() throws {
        let call = Self.call("/verifyReceipt", apple: 21005)
        for name in ["status-21005", "status-21009", "status-21100", "http-503", "not-json"] {
            #expect(try Self.verdict(name, .serverError(httpStatus: 503), [call]) == .pass, "\(name)")
            #expect(try Self.verdict(name, .serverError(httpStatus: 500), [call]) == .crashed, "\(name)")
        }
        #expect(try Self.verdict("status-21002", .serverError(httpStatus: 503), [call]) == .crashed)
        #expect(try Self.verdict("genuine", .serverError(httpStatus: 502), [call]) == .crashed)
        #expect(try Self.verdict("genuine", .timedOut, [call]) == .noAnswer)
    }

    @Test("every scenario says who could cause it and what it costs; names are unique")
    func catalogue() {
        let names = VerifyReceiptScenario.catalogue.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.first == "genuine")
        for scenario in VerifyReceiptScenario.catalogue {
            #expect(!scenario.threat.isEmpty && !scenario.summary.isEmpty, "\(scenario.name)")
        }
    }
}

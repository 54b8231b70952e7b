import Foundation
import ReceiptASN1
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7
import ReceiptTestSupport
import Testing

/// Replays every input in `Corpus/regressions/` (inputs that once crashed, hung or broke an oracle in a fuzz
/// harness; see its README.md) through the library's entry points, without a fuzzer build, with the harnesses'
/// oracles. An empty folder passes. The inputs of fixed bugs also have exact expectations below.
@Suite("Every saved fuzz regression input is read safely")
struct RegressionCorpusTests {
    static let directory = Fixtures.url("Corpus/regressions")

    /// The regression inputs, sorted by name (README.md and other notes excluded).
    static var inputs: [(name: String, bytes: [UInt8])] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasSuffix(".md") && !$0.hasPrefix(".") }.sorted().map { name in
            (name, Fixtures.bytes("Corpus/regressions/\(name)"))
        }
    }

    @Test func theFolderExplainsItself() {
        #expect(FileManager.default.fileExists(atPath: Self.directory.appendingPathComponent("README.md").path))
    }

    @Test func regressionInputsAreNamedForTheirHarness() {
        let harnesses = [
            "attributes", "in-app", "ber", "pkcs7", "dump", "dates", "differential", "verify", "jws",
            "jws-verify", "status", "classifier",
        ]
        for (name, _) in Self.inputs {
            #expect(harnesses.contains { name.hasPrefix($0 + "-") }, "\(name) does not start with a harness name")
        }
    }

    @Test func everyInputIsReadByEveryEntryPoint() {
        for (name, bytes) in Self.inputs {
            Replay(name: name, bytes: bytes).run()
        }
    }

    @Test func everyInputIsDumpedAsTextAndJSON() throws {
        guard let rcpt = Self.rcptExecutable else {
            Issue.record("the rcpt executable is not built next to the tests (swift build --build-tests builds it)")
            return
        }
        for (name, _) in Self.inputs {
            let path = Self.directory.appendingPathComponent(name).path
            let json = try Self.run(rcpt, ["dump", "--format", "json", "--color", "never", path])
            #expect(json.died == false, "rcpt dump --format json died on \(name)")
            #expect([0, 1, 2].contains(json.status), "rcpt dump --format json exited \(json.status) on \(name)")
            if !json.output.isEmpty {
                #expect((try? JSONSerialization.jsonObject(with: json.output)) != nil, "JSON of \(name) parses back")
            }
            let text = try Self.run(rcpt, ["dump", "--color", "never", path])
            #expect(text.died == false, "rcpt dump died on \(name)")
            #expect([0, 1, 2].contains(text.status), "rcpt dump exited \(text.status) on \(name)")
        }
    }

    /// The `verify` harness's entry point: `ReceiptInspector.inspect` with the TEST-ONLY root of `Corpus/fuzz/keys/` as the
    /// only anchor and its expectations (`Fuzz/Sources/FuzzSigningSupport/VerifyExpectations.swift`).
    @Test func everyInputIsVerifiedAgainstTheTestKeys() throws {
        guard let rcpt = Self.rcptExecutable else {
            Issue.record("the rcpt executable is not built next to the tests (swift build --build-tests builds it)")
            return
        }
        let expectations = [
            "--root", "Corpus/fuzz/keys/root.pem", "--bundle-id", "com.example.rcpt.synthetic",
            "--app-version", "42", "--device-id", "0EE7C0DE-0000-4000-8000-00000000BEEF",
        ]
        for (name, _) in Self.inputs {
            let path = Self.directory.appendingPathComponent(name).path
            let json = try Self.run(rcpt, ["verify", "--format", "json"] + expectations + [path])
            #expect(json.died == false, "rcpt verify --format json died on \(name)")
            #expect([0, 1, 2].contains(json.status), "rcpt verify exited \(json.status) on \(name)")
            if !json.output.isEmpty {
                #expect((try? JSONSerialization.jsonObject(with: json.output)) != nil, "JSON of \(name) parses back")
            }
        }
    }

    // MARK: - Fixed bugs, with their exact expectations

    @Test func constructedUniversalZeroIsNotAnElement() {
        // `20 00` read as an empty constructed element; X.690 reserves [UNIVERSAL 0] for end-of-contents.
        let bytes = Fixtures.bytes("Corpus/regressions/differential-constructed-universal-0.bin")
        #expect(bytes == [0x20, 0x00])
        for rules in [ASN1Rules.ber, .der] {
            #expect(throws: ASN1Error.self) { try ASN1Tree.read(bytes, rules: rules) }
        }
        #expect(throws: ASN1Error.self) { try ASN1Tree.read([0x30, 0x04, 0x3F, 0x00, 0x00, 0x00]) }
    }

    @Test func anExtraElementInTheEncapsulatedContentInfoIsAFinding() {
        // It was skipped silently; OpenSSL rejects it. Now it is read and reported like every other extra element.
        let bytes = Fixtures.bytes("Corpus/regressions/differential-extra-element-in-encapsulated-content-info.bin")
        let result = SignedDataReader.read(bytes)
        #expect(result.error == nil)
        #expect(result.findings.contains { $0.code == "pkcs7-extra-content" && $0.message.contains("Encapsulated") })
    }

    @Test func anObjectIdentifierArcBeyond64BitsIsRead() {
        // The signer's digestAlgorithm 2.16.840.<an arc of 16 octets>.101.3.4.2.1: a valid encoding OpenSSL reads
        // (and writes as text with the same digits); ours refused the whole SignedData as unreadable.
        let bytes = Fixtures.bytes("Corpus/regressions/differential-oid-arc-beyond-64-bits.bin")
        let result = SignedDataReader.read(bytes)
        #expect(result.error == nil)
        #expect(
            result.signedData.signers.first?.digestAlgorithm.oid
                == "2.16.840.156995432573021559791788235466182401.101.3.4.2.1")
    }

    @Test func aConstructedSignatureIsReadAsItsSegmentsJoined() throws {
        // Legal BER that OpenSSL joins; ours stopped at the element and called the input unreadable. Now the
        // segments are the signature, never the segments' headers, and the constructed form is an encoding anomaly.
        let bytes = Fixtures.bytes("Corpus/regressions/differential-constructed-signature.bin")
        let result = SignedDataReader.read(bytes)
        #expect(result.error == nil)
        let signer = try #require(result.signedData.signers.first)
        #expect(signer.signatureString.offset == 732)
        #expect(signer.signatureString.tag.isConstructed)
        #expect(signer.signatureSegments == [738..<1356])
        #expect(signer.signatureOffset == 738)
        #expect(Array(signer.signature(in: bytes)) == Array(bytes[738..<1356]))
        // The eContent at 52 and the signature: both counted.
        #expect(
            result.findings.contains {
                $0.code == "ber-constructed-string" && $0.message.contains("2 elements use a constructed string")
            })
    }

    @Test func aConstructedSubjectKeyIdentifierTakesOctetStringSegmentsOnly() {
        // `a0 05 30 00 02 01 01`: a constructed [0] whose segments are a SEQUENCE and an INTEGER. OpenSSL joins
        // segments of any tag (Fuzz/README, deliberate difference 7); X.690 allows OCTET STRING segments only, and
        // ours, which reads a constructed [0] now, stops at the first other one.
        let bytes = Fixtures.bytes("Corpus/regressions/differential-constructed-subject-key-identifier.bin")
        let error = SignedDataReader.read(bytes).error
        #expect(error?.kind == .asn1InvalidStringSegment)
        #expect(error?.offset == 46)
    }

    @Test func aUTCYearBeyondFourDigitsIsWrittenAsItIs() {
        // A valid local time whose UTC instant is in year 10000: the UTC form cannot be RFC 3339 (see Fuzz/README.md).
        let bytes = Fixtures.bytes("Corpus/regressions/dates-utc-year-10000.bin")
        guard case .success(let date) = ReceiptDate.parse(bytes) else {
            Issue.record("the local time no longer parses")
            return
        }
        #expect(date.rfc3339UTC == "10000-01-01T07:59:29Z")
    }

    // MARK: - Running rcpt

    static var rcptExecutable: URL? {
        let bundle = Bundle.main.bundleURL
        let directory = bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
        for candidate in [directory.appendingPathComponent("rcpt"), Fixtures.url(".build/debug/rcpt")]
        where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        return nil
    }

    static func run(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, died: Bool, output: Data) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = Fixtures.repositoryRoot
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason != .exit, data)
    }
}

/// One input through the entry points the fuzz harnesses drive, with their oracles.
struct Replay {
    let name: String
    let bytes: [UInt8]

    func run() {
        receipt()
        tree()
        payload(file: bytes, valueRange: nil)
        inAppRecord()
        date()
    }

    /// `Receipt.read`, then everything `dump` reads from it.
    func receipt() {
        let receipt = Receipt.read(bytes)
        if let offset = receipt.error?.offset {
            #expect(offset >= 0 && offset <= bytes.count, "\(name): read error offset \(offset)")
        }
        for attribute in receipt.attributes {
            _ = attribute.name
            _ = attribute.record?.attributes.count
        }
        _ = receipt.inAppRecords.map(\.attributes)
        _ = receipt.description
    }

    /// `ASN1Tree.read` under both rule sets: what reads re-encodes exactly; DER-accepted is BER-accepted.
    func tree() {
        let ber = try? ASN1Tree.read(bytes, rules: .ber)
        let der = try? ASN1Tree.read(bytes, rules: .der)
        if let ber { #expect(ber.write() == bytes, "\(name): BER round trip") }
        if let der {
            #expect(der.write() == bytes, "\(name): DER round trip")
            #expect(ber?.nodes == der.nodes, "\(name): DER accepted what BER read differently")
        }
    }

    /// `PayloadReader.read` over the whole input, every attribute and record decoded.
    @discardableResult
    func payload(file: [UInt8], valueRange: Range<Int>?) -> ReceiptPayload {
        let payload = PayloadReader.read(
            file: file, segments: [0..<file.count], depth: 0, limits: .default,
            nodesRead: 0)
        var records = 0
        for attribute in payload.attributes {
            if let valueOffset = attribute.valueOffset {
                #expect(valueOffset + attribute.valueBytes.count <= file.count, "\(name): value at \(valueOffset)")
            }
            if let record = attribute.record {
                records += 1
                for inner in record.attributes { #expect(inner.record == nil, "\(name): nested record") }
            }
        }
        #expect(payload.inAppRecords.count == records, "\(name): record count")
        return payload
    }

    /// The input as the value of one type-17 attribute, as the `in-app` harness wraps it.
    func inAppRecord() {
        var writer = ASN1Writer()
        writer.appendConstructed(.set) { writer in
            writer.appendConstructed(.sequence) { writer in
                writer.appendInteger(FieldTable.inAppRecordType)
                writer.appendInteger(1)
                writer.appendOctetString(bytes)
            }
        }
        let payload = payload(file: writer.bytes, valueRange: nil)
        #expect(payload.error == nil && payload.attributes.count == 1, "\(name): in-app wrapper")
    }

    /// `ReceiptDate.parse` → `rfc3339UTC` → parse: the same instant, unless the UTC year has no four-digit form.
    func date() {
        guard case .success(let date) = ReceiptDate.parse(bytes) else { return }
        let utc = date.rfc3339UTC
        let milliseconds = date.millisecondsSinceEpoch
        guard milliseconds >= -62_167_219_200_000, milliseconds <= 253_402_300_799_999 else {
            #expect(utc.hasPrefix("-") || utc.prefix { $0 != "-" }.count > 4, "\(name): \(utc)")
            return
        }
        guard case .success(let again) = ReceiptDate.parse(utc) else {
            Issue.record("\(name): \(utc) does not parse")
            return
        }
        #expect(again.millisecondsSinceEpoch == milliseconds, "\(name): \(utc)")
    }
}

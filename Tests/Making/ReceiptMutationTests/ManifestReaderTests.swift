import Foundation
import ReceiptDiagnostics
import ReceiptSuite
import Testing

/// `manifest.json` is read with rcpt's one JSON reader: typed members, and a name given twice refused (Foundation's
/// decoder took the first copy where every other reader of the suite takes the last).
@Suite("Suite manifest reader")
struct ManifestReaderTests {
    static let entry =
        #"{"name":"foreign-ca","file":"foreign-ca.receipt","group":"chain","layer":"chain","description":"d","expected":"reject","finding":"chain-invalid","signatureValid":true,"concern":"security"}"#
    static let expectations =
        #"{"bundleID":"com.example","appVersion":"1","deviceID":"00","root":"root.pem","validator":"v"}"#

    func read(_ text: String) throws(SuiteError) -> Manifest {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        FileManager.default.createFile(atPath: directory.path + "/manifest.json", contents: Data(text.utf8))
        return try Manifest.read(in: directory.path)
    }

    @Test func readsAManifest() throws {
        let manifest = try read(
            #"{"schema":"rcpt.mutations/1","input":"in.receipt","seed":7,"expectations":"# + Self.expectations
                + #","mutations":["# + Self.entry + #"],"skipped":{"x":"why"}}"#)
        #expect(manifest.seed == 7 && manifest.input == "in.receipt" && manifest.skipped == ["x": "why"])
        #expect(
            manifest.mutations.map(\.name) == ["foreign-ca"] && manifest.mutations.first?.finding == "chain-invalid")
        #expect(manifest.expectations.bundleID == "com.example" && manifest.expectations.root == "root.pem")
    }

    /// `--force` over a suite removes what that suite wrote (the files its manifest names, report.json, the
    /// manifest), never anything else: a replaced suite kept the earlier run's findings beside the new manifest.
    @Test func aReplacedSuiteLeavesNothingOfItsOwnBehind() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest =
            #"{"schema":"rcpt.mutations/1","input":"in.receipt","seed":7,"expectations":"# + Self.expectations
            + #","mutations":["# + Self.entry + #"],"skipped":{}}"#
        for (name, text) in [
            ("manifest.json", manifest), ("foreign-ca.receipt", "r"), ("report.json", "{}"), ("mine.txt", "kept"),
        ] {
            FileManager.default.createFile(atPath: directory.path + "/" + name, contents: Data(text.utf8))
        }
        Manifest.removePrevious(in: directory.path)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["mine.txt"])
    }

    /// Written with the one JSON writer and read back with the one reader: the same manifest, every string escaped,
    /// a seed above Int64.max kept, absent optionals left out.
    @Test func writesWhatItReads() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = Manifest(
            input: "in \"quoted\"\n.receipt", seed: UInt64.max,
            expectations: ManifestExpectations(
                bundleID: nil, appVersion: "1/2", deviceID: "00", root: "r\\oot.pem",
                validator: "v {}"),
            mutations: [
                ManifestEntry(
                    name: "a", file: "a.receipt", group: "chain", layer: "chain", description: "d\u{1}",
                    expected: "reject", finding: nil, signatureValid: false, concern: "policy")
            ],
            skipped: ["z": "why", "b": "because"])
        try written.write(in: directory.path)
        #expect(try Manifest.read(in: directory.path) == written)
        let text = String(decoding: written.json(), as: UTF8.self)
        #expect(!text.contains("bundleID") && !text.contains("finding") && text.hasSuffix("}\n"))
    }

    @Test func refusesANameGivenTwiceWithItsOffset() {
        let text =
            #"{"schema":"rcpt.mutations/1","input":"a","input":"b","seed":7,"expectations":"# + Self.expectations
            + #","mutations":[],"skipped":{}}"#
        #expect {
            _ = try read(text)
        } throws: { error in
            guard let error = error as? SuiteError else { return false }
            return error.kind == .manifestInvalid && error.offset == 42
                && error.message.contains("\"input\" is given twice")
        }
    }

    /// The manifest itself given where the suite's directory belongs is said so, with the directory to give (a
    /// trial was told "suite/manifest.json/manifest.json is missing"); JSON that breaks says where.
    @Test func saysWhatToGiveForAManifestFileAndWhereJSONBreaks() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.path + "/manifest.json"
        #expect(FileManager.default.createFile(atPath: file, contents: Data(#"{"schema": nul}"#.utf8)))
        #expect {
            _ = try Manifest.read(in: file)
        } throws: { error in
            (error as? SuiteError)?.message.contains("is a file: give the suite's directory") == true
                && (error as? SuiteError)?.message.contains("here \(directory.path)") == true
        }
        #expect {
            _ = try Manifest.read(in: directory.path)
        } throws: { error in
            (error as? SuiteError)?.message.contains("is not JSON (at offset 14)") == true
        }
        // A directory that is not there is said so, not "its manifest.json is missing" (a CI user's trial).
        #expect {
            _ = try Manifest.read(in: directory.path + "/nope")
        } throws: { error in
            (error as? SuiteError)?.message.hasSuffix(
                "/nope: no such directory: give the suite's directory, made with `rcpt mutate --all --out-dir`") == true
        }
        // An empty directory has no manifest.
        #expect {
            _ = try Manifest.read(in: FileManager.default.temporaryDirectory.path)
        } throws: { error in
            (error as? SuiteError)?.message.contains("manifest.json is missing") == true
        }
    }

    @Test func refusesMistypedMembers() {
        for text in [
            #"{"schema":"rcpt.mutations/2"}"#, #"[]"#, #"{"schema":"rcpt.mutations/1","input":"a","seed":-1}"#,
            #"{"schema":"rcpt.mutations/1","input":"a","seed":1,"expectations":{},"mutations":[]}"#, "{",
        ] {
            #expect(throws: SuiteError.self, "\(text)") { _ = try read(text) }
        }
    }
}

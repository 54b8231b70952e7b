import Foundation
import ReceiptDiagnostics
import ReceiptJSON

/// The contract between `rcpt mutate` (which writes a suite) and `rcpt conformance` (which runs a validator over
/// it): `manifest.json`, its entries and verdicts. Nothing here knows how the receipts were made.

/// What a correct receipt validator must do with a receipt.
package enum ExpectedVerdict: String, Sendable, Hashable, CaseIterable {
    case accept
    case reject
}

/// What accepting a must-reject entry costs. **security**: an attacker without Apple's key gains something from a
/// validator that accepts it (a forged, foreign or tampered document, an unsigned wrapper, a genuine document of
/// another app or device). **policy**: a genuine document a server may refuse or accept on purpose (expired, another
/// version or environment). **robustness**: a shape only the signing key's holder can make and Apple never signs,
/// or a cross-reader ambiguity: a validator must not crash, hang or misread it, and accepting it is reported with
/// the readers it would fool, but is no security failure.
package enum Concern: String, Sendable, Hashable, CaseIterable {
    case security
    case policy
    case robustness
}

/// Who could make an input, in the world where the validator runs.
package enum Attacker: String, Sendable, Hashable, CaseIterable {
    /// Anyone, without a key: an unsigned wrapper, a forged or tampered signature, a foreign or self-made chain,
    /// algorithm confusion, bytes around a genuine document.
    case anyone
    /// Anyone holding a genuine document: Apple's own bytes for another app, environment, device, customer, kind
    /// or time.
    case replay
    /// Only a holder of the signing key: a shape Apple never signs.
    case signer
}

/// One entry of a suite's manifest.
package struct ManifestEntry: Sendable, Hashable {
    package var name: String
    package var file: String
    package var group: String
    package var layer: String
    package var description: String
    package var expected: String
    package var finding: String?
    package var signatureValid: Bool
    /// `security`, `policy` or `robustness` (`Concern`); suites written before it existed count as security.
    package var concern: String?
    /// `anyone`, `replay` or `signer` (`Attacker`): who could make the input; absent in older suites.
    package var attacker: String?
    /// Why the entry has its attacker and concern, in one sentence.
    package var threat: String?
    /// For a robustness entry: the readers a validator that accepts it could disagree with.
    package var readers: String?

    package init(
        name: String, file: String, group: String, layer: String, description: String, expected: String,
        finding: String?, signatureValid: Bool, concern: String?, attacker: String? = nil,
        threat: String? = nil, readers: String? = nil
    ) {
        self.name = name
        self.file = file
        self.group = group
        self.layer = layer
        self.description = description
        self.expected = expected
        self.finding = finding
        self.signatureValid = signatureValid
        self.concern = concern
        self.attacker = attacker
        self.threat = threat
        self.readers = readers
    }
}

/// What a suite's validators must be told to judge the receipts as the manifest expects.
package struct ManifestExpectations: Sendable, Hashable {
    package var bundleID: String?
    package var appVersion: String?
    package var deviceID: String
    /// The app's Apple id, for a Production JWS suite (Apple's verifier is configured for Production only with one).
    package var appAppleID: String?
    /// The environment a JWS suite's tokens come from (Apple's verifier is always configured with one).
    package var environment: String?
    /// `device` or `server` (`ValidatorContext`): what the suite asks of a validator; absent in older suites (device).
    package var context: String?
    package var root: String
    package var validator: String

    package init(
        bundleID: String?, appVersion: String?, deviceID: String, appAppleID: String? = nil,
        environment: String? = nil, context: String? = nil, root: String, validator: String
    ) {
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.appAppleID = appAppleID
        self.environment = environment
        self.context = context
        self.deviceID = deviceID
        self.root = root
        self.validator = validator
    }
}

/// `manifest.json` of a mutation suite.
package struct Manifest: Sendable, Hashable {
    package var schema = "rcpt.mutations/1"
    package var input: String
    package var seed: UInt64
    package var expectations: ManifestExpectations
    package var mutations: [ManifestEntry]
    /// Mutations that could not be applied to this input, with the reason.
    package var skipped: [String: String]

    package init(
        input: String, seed: UInt64, expectations: ManifestExpectations, mutations: [ManifestEntry],
        skipped: [String: String]
    ) {
        self.input = input
        self.seed = seed
        self.expectations = expectations
        self.mutations = mutations
        self.skipped = skipped
    }
}

extension Manifest {
    /// `manifest.json` as rcpt's one JSON writer writes it: indented, members in name order, absent optionals left
    /// out.
    package func json() -> [UInt8] {
        JSONWriter.document(pretty: true) { json in
            json.object { json in
                json.object("expectations") { json in
                    if let appAppleID = expectations.appAppleID { json.member("appAppleID", appAppleID) }
                    if let appVersion = expectations.appVersion { json.member("appVersion", appVersion) }
                    if let bundleID = expectations.bundleID { json.member("bundleID", bundleID) }
                    if let context = expectations.context { json.member("context", context) }
                    json.member("deviceID", expectations.deviceID)
                    if let environment = expectations.environment { json.member("environment", environment) }
                    json.member("root", expectations.root)
                    json.member("validator", expectations.validator)
                }
                json.member("input", input)
                json.objects("mutations", mutations) { entry, json in
                    if let attacker = entry.attacker { json.member("attacker", attacker) }
                    if let concern = entry.concern { json.member("concern", concern) }
                    json.member("description", entry.description)
                    json.member("expected", entry.expected)
                    json.member("file", entry.file)
                    if let finding = entry.finding { json.member("finding", finding) }
                    json.member("group", entry.group)
                    json.member("layer", entry.layer)
                    json.member("name", entry.name)
                    if let readers = entry.readers { json.member("readers", readers) }
                    json.member("signatureValid", entry.signatureValid)
                    if let threat = entry.threat { json.member("threat", threat) }
                }
                json.member("schema", schema)
                json.key("seed")
                json.number(text: String(seed))
                json.object("skipped") { json in
                    for name in skipped.keys.sorted() {
                        json.key(named: name)
                        json.string(skipped[name] ?? "")
                    }
                }
            }
        }
    }

    /// Writes `manifest.json` into `directory`.
    package func write(in directory: String) throws(SuiteError) {
        guard FileManager.default.createFile(atPath: directory + "/manifest.json", contents: Data(json())) else {
            throw SuiteError(.writeFailed, "cannot write \(directory)/manifest.json")
        }
    }

    /// The manifest in `directory`.
    package static func read(in directory: String) throws(SuiteError) -> Manifest {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw SuiteError(
                .manifestMissing,
                "\(directory): no such directory: give the suite's directory, made with `rcpt mutate --all --out-dir`")
        }
        if !isDirectory.boolValue {
            let parent = (directory as NSString).deletingLastPathComponent
            throw SuiteError(
                .manifestMissing,
                "\(directory) is a file: give the suite's directory (the one holding manifest.json\((directory as NSString).lastPathComponent == "manifest.json" ? ", here \(parent.isEmpty ? "." : parent)" : ""))"
            )
        }
        guard let data = FileManager.default.contents(atPath: directory + "/manifest.json") else {
            throw SuiteError(
                .manifestMissing, "\(directory)/manifest.json is missing: make the suite with `rcpt mutate --all`")
        }
        do {
            return try ManifestReader(try JSONDocument.read([UInt8](data))).manifest()
        } catch let error as JSONError {
            throw SuiteError(
                .manifestInvalid,
                "\(directory)/manifest.json is not JSON (at offset \(error.offset)): \(error.message)", at: error.offset
            )
        } catch let error as ManifestReader.Failure {
            throw SuiteError(
                .manifestInvalid, "\(directory)/manifest.json is not a rcpt.mutations/1 manifest: \(error.reason)",
                at: error.offset)
        } catch {
            throw SuiteError(.manifestInvalid, "\(directory)/manifest.json cannot be read: \(error)")
        }
    }
}

/// Reads a manifest with rcpt's one JSON reader: every member typed, a name given twice refused (two readers of the
/// suite would otherwise see two manifests).
struct ManifestReader {
    struct Failure: Error {
        var reason: String
        var offset: Int
    }

    let document: JSONDocument

    init(_ document: JSONDocument) throws(Failure) {
        if let duplicate = document.duplicateKeys.first {
            let node = document.nodes[duplicate.duplicate]
            throw Failure(
                reason: "\"\(duplicate.name)\" is given twice", offset: node.keyRange?.lowerBound ?? node.start)
        }
        self.document = document
    }

    func manifest() throws(Failure) -> Manifest {
        let root = try object(document.root, "the manifest")
        let schema = try string("schema", of: root)
        guard schema == "rcpt.mutations/1" else {
            throw Failure(reason: "schema is \"\(schema)\"", offset: document.nodes[root].start)
        }
        let expectations = try object(try member("expectations", of: root), "expectations")
        let entries = try member("mutations", of: root)
        guard document.nodes[entries].kind == .array else {
            throw Failure(reason: "mutations is not an array", offset: document.nodes[entries].start)
        }
        var mutations: [ManifestEntry] = []
        for node in document.children(of: entries) {
            let entry = try object(node, "a mutation")
            mutations.append(
                ManifestEntry(
                    name: try string("name", of: entry), file: try string("file", of: entry),
                    group: try string("group", of: entry), layer: try string("layer", of: entry),
                    description: try string("description", of: entry), expected: try string("expected", of: entry),
                    finding: try optionalString("finding", of: entry),
                    signatureValid: try bool("signatureValid", of: entry),
                    concern: try optionalString("concern", of: entry),
                    attacker: try optionalString("attacker", of: entry),
                    threat: try optionalString("threat", of: entry), readers: try optionalString("readers", of: entry)))
        }
        var skipped: [String: String] = [:]
        if let node = document.member("skipped", of: root) {
            let object = try object(node, "skipped")
            for child in document.children(of: object) {
                guard let name = document.key(child), let reason = document.string(child) else {
                    throw Failure(
                        reason: "skipped holds something that is not a string", offset: document.nodes[child].start)
                }
                skipped[name] = reason
            }
        }
        let seedNode = try member("seed", of: root)
        guard document.nodes[seedNode].kind == .number, let seed = UInt64(document.text(seedNode)) else {
            throw Failure(reason: "seed is not an unsigned integer", offset: document.nodes[seedNode].start)
        }
        return Manifest(
            input: try string("input", of: root), seed: seed,
            expectations: ManifestExpectations(
                bundleID: try optionalString("bundleID", of: expectations),
                appVersion: try optionalString("appVersion", of: expectations),
                deviceID: try string("deviceID", of: expectations),
                appAppleID: try optionalString("appAppleID", of: expectations),
                environment: try optionalString("environment", of: expectations),
                context: try optionalString("context", of: expectations), root: try string("root", of: expectations),
                validator: try string("validator", of: expectations)),
            mutations: mutations, skipped: skipped)
    }

    func object(_ node: Int, _ what: String) throws(Failure) -> Int {
        guard document.nodes[node].kind == .object else {
            throw Failure(reason: "\(what) is not an object", offset: document.nodes[node].start)
        }
        return node
    }

    func member(_ name: String, of object: Int) throws(Failure) -> Int {
        guard let node = document.member(name, of: object) else {
            throw Failure(reason: "\"\(name)\" is missing", offset: document.nodes[object].start)
        }
        return node
    }

    func string(_ name: String, of object: Int) throws(Failure) -> String {
        let node = try member(name, of: object)
        guard let text = document.string(node) else {
            throw Failure(reason: "\"\(name)\" is not a string", offset: document.nodes[node].start)
        }
        return text
    }

    func optionalString(_ name: String, of object: Int) throws(Failure) -> String? {
        guard let node = document.member(name, of: object), document.nodes[node].kind != .null else { return nil }
        return try string(name, of: object)
    }

    func bool(_ name: String, of object: Int) throws(Failure) -> Bool {
        let node = try member(name, of: object)
        switch document.nodes[node].kind {
        case .true: return true
        case .false: return false
        default: throw Failure(reason: "\"\(name)\" is not true or false", offset: document.nodes[node].start)
        }
    }
}

/// Why a suite could not be read or run.
package typealias SuiteError = CodedError

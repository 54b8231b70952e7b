import Foundation
import ReceiptDiagnostics

/// The contract between `rcpt mutate` (which writes a suite) and `rcpt conformance` (which runs a validator over
/// it): `manifest.json`, its entries and verdicts. Nothing here knows how the receipts were made.

/// What a correct receipt validator must do with a receipt.
package enum ExpectedVerdict: String, Sendable, Hashable, CaseIterable {
    case accept
    case reject
}

/// Whether rejecting a mutation is a matter of security (signature, chain, container, parser integrity, bundle or
/// device binding: accepting it lets a forged or foreign receipt through) or of app policy (expiry, quantities,
/// flags, duplicate transactions, dates in the future, versions: a server may decide otherwise on purpose).
package enum Concern: String, Sendable, Hashable, CaseIterable {
    case security
    case policy
}

/// One entry of a suite's manifest.
package struct ManifestEntry: Sendable, Hashable, Codable {
    public var name: String
    package var file: String
    package var group: String
    package var layer: String
    package var description: String
    package var expected: String
    package var finding: String?
    package var signatureValid: Bool
    /// `security` or `policy` (`Concern`); suites written before it existed count as security.
    package var concern: String?

    package init(name: String, file: String, group: String, layer: String, description: String, expected: String,
                finding: String?, signatureValid: Bool, concern: String?) {
        self.name = name
        self.file = file
        self.group = group
        self.layer = layer
        self.description = description
        self.expected = expected
        self.finding = finding
        self.signatureValid = signatureValid
        self.concern = concern
    }
}

/// What a suite's validators must be told to judge the receipts as the manifest expects.
package struct ManifestExpectations: Sendable, Hashable, Codable {
    public var bundleID: String?
    package var appVersion: String?
    package var deviceID: String
    package var root: String
    package var validator: String

    package init(bundleID: String?, appVersion: String?, deviceID: String, root: String, validator: String) {
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.deviceID = deviceID
        self.root = root
        self.validator = validator
    }
}

/// `manifest.json` of a mutation suite.
package struct Manifest: Sendable, Hashable, Codable {
    package var schema = "rcpt.mutations/1"
    package var input: String
    package var seed: UInt64
    package var expectations: ManifestExpectations
    package var mutations: [ManifestEntry]
    /// Mutations that could not be applied to this input, with the reason.
    package var skipped: [String: String]

    package init(input: String, seed: UInt64, expectations: ManifestExpectations, mutations: [ManifestEntry],
                skipped: [String: String]) {
        self.input = input
        self.seed = seed
        self.expectations = expectations
        self.mutations = mutations
        self.skipped = skipped
    }
}

extension Manifest {
    /// The manifest in `directory`.
    package static func read(in directory: String) throws(SuiteError) -> Manifest {
        guard let data = FileManager.default.contents(atPath: directory + "/manifest.json") else {
            throw SuiteError(.manifestMissing, "\(directory)/manifest.json is missing: make the suite with `rcpt mutate --all`")
        }
        do {
            return try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            throw SuiteError(.manifestInvalid, "\(directory)/manifest.json is not a rcpt.mutations/1 manifest: \(error)")
        }
    }
}

/// Why a suite could not be read or run.
package typealias SuiteError = CodedError

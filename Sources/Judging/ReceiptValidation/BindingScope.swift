import ReceiptDiagnostics
import ReceiptModel

/// What a verdict was bound to by the caller's expectations, and what it was not. A document is valid for the app,
/// version, device and environment it was checked against, and for any other where none was: with no bundle id
/// expected (and, for a Production document, no app Apple id) only the signature and chain were judged, and any
/// app's genuine document replayed passes. Every output of `verify` says so; `--require-binding`
/// (`InspectionOptions.requiresBinding`) makes an unbound check an error (`binding-required`).
public struct BindingScope: Sendable, Hashable {
    /// One thing a document can be bound to.
    public enum Part: String, Sendable, Hashable, CaseIterable {
        case bundleID = "bundle id"
        case appAppleID = "app Apple id"
        case appVersion = "app version"
        case device
        case environment

        /// The option of `rcpt verify` that checks it.
        public var option: String {
            switch self {
            case .bundleID: return "--bundle-id"
            case .appAppleID: return "--app-apple-id"
            case .appVersion: return "--app-version"
            case .device: return "--device-id"
            case .environment: return "--environment"
            }
        }
    }

    /// What the expectations checked, in `Part` order: an expected value the document carries.
    public var checked: [Part]
    /// What they did not: nothing was expected, or the document does not carry it.
    public var unchecked: [Part]
    /// What was expected and the document does not carry (a transaction's app Apple id, renewal info's bundle id, a
    /// Sandbox receipt's app Apple id): it bound nothing.
    public var notCarried: [Part]
    /// What an expectation must name for the document to be bound to an app: the bundle id, and in Production the
    /// app Apple id (as Apple's verifier insists on being configured with it).
    public var required: [Part]
    /// Whether the document names its environment (so that `--environment` can check it).
    public var carriesEnvironment = true

    /// Whether the document was bound to an app: every required part was expected, and the document carries an
    /// app's identity (its bundle id or app Apple id) that was checked.
    public var isBound: Bool { missing.isEmpty && carriesIdentity }

    /// Whether an app's identity (bundle id, app Apple id) was checked: a renewal info alone carries none.
    public var carriesIdentity: Bool { checked.contains(.bundleID) || checked.contains(.appAppleID) }

    /// The options that would bind it: `--bundle-id`, `--app-apple-id` (none when every one was given, and the
    /// document carries no app's identity).
    public var missingOptions: [String] { missing.map(\.option) }

    private var missing: [Part] { required.filter { !checked.contains($0) && !notCarried.contains($0) } }

    /// The scope of `expectations` over a document that is (or is not) from Production and carries `carried`.
    package static func of(_ expectations: Expectations, production: Bool, carried: Set<Part>) -> BindingScope {
        let given: Set<Part> = Set(
            [
                expectations.bundleID.map { _ in .bundleID }, expectations.appAppleID.map { _ in .appAppleID },
                expectations.appVersion.map { _ in .appVersion }, expectations.deviceID.map { _ in .device },
                expectations.environment.map { _ in .environment },
            ].compactMap { $0 })
        let checked = Part.allCases.filter { given.contains($0) && carried.contains($0) }
        let required: [Part] = production ? [.bundleID, .appAppleID] : [.bundleID]
        return BindingScope(
            checked: checked, unchecked: Part.allCases.filter { !checked.contains($0) },
            notCarried: Part.allCases.filter { given.contains($0) && !carried.contains($0) }, required: required,
            carriesEnvironment: carried.contains(.environment))
    }

    /// The error `--require-binding` makes of a check bound to no app, or to no environment where the document
    /// names one (a Sandbox document of the app is free to any TestFlight tester: Apple's verifier always checks
    /// the environment, a red team's trial).
    package func requiredFindings(_ options: InspectionOptions, document: String) -> [Finding] {
        guard options.requiresBinding else { return [] }
        guard !isBound else {
            guard carriesEnvironment, !checked.contains(.environment) else { return [] }
            return [
                Finding(
                    .bindingRequired, at: nil,
                    "--require-binding: no environment was expected, so this app's genuine Sandbox \(document) (any TestFlight tester gets one free) would pass in Production; pass --environment"
                )
            ]
        }
        guard !missing.isEmpty else {
            return [
                Finding(
                    .bindingRequired, at: nil,
                    "--require-binding: the \(document) carries no bundle id or app Apple id, so it cannot be bound to an app on its own, and any app's genuine \(document) would pass; verify the document that carries it (a notification, an API response)"
                )
            ]
        }
        return [
            Finding(
                .bindingRequired, at: nil,
                "--require-binding: no \(missing.map(\.rawValue).joined(separator: " or ")) was expected, so any app's genuine \(document) would pass; pass \(missingOptions.joined(separator: " and "))"
            )
        ]
    }

    /// One sentence for the text reports: what the verdict is bound to, or why it is not bound to an app.
    public func sentence(document: String) -> String {
        let uncarried =
            notCarried.isEmpty
            ? ""
            : "; expected but not carried by the \(document), so not checked: "
                + notCarried.map(\.rawValue).joined(separator: ", ")
        if !isBound {
            guard !missing.isEmpty else {
                return "not bound to an app: the \(document) carries no bundle id or app Apple id, and any app's "
                    + "genuine \(document) passes — verify the document that carries it\(uncarried)"
            }
            return "not bound to an app: only the signature and chain were judged, and any app's genuine \(document) "
                + "passes them — pass \(missingOptions.joined(separator: " and "))\(uncarried)"
        }
        let names = checked.map(\.rawValue).joined(separator: ", ")
        let others = unchecked.filter { !notCarried.contains($0) }
        let rest = others.isEmpty ? "" : "; not checked: " + others.map(\.rawValue).joined(separator: ", ")
        return "checked against the expected \(names)\(rest)\(uncarried)"
    }
}

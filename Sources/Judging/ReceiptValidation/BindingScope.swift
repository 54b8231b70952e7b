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

    /// What the expectations checked, in `Part` order.
    public var checked: [Part]
    /// What they did not.
    public var unchecked: [Part]
    /// What an expectation must name for the document to be bound to an app: the bundle id, and in Production the
    /// app Apple id (as Apple's verifier insists).
    public var required: [Part]

    /// Whether the document was bound to an app.
    public var isBound: Bool { required.allSatisfy(checked.contains) }

    /// The options that would bind it: `--bundle-id`, `--app-apple-id`.
    public var missingOptions: [String] { required.filter { !checked.contains($0) }.map(\.option) }

    /// The scope of `expectations` over a document that is (or is not) from Production.
    package static func of(_ expectations: Expectations, production: Bool) -> BindingScope {
        let given: [Part: Bool] = [
            .bundleID: expectations.bundleID != nil, .appAppleID: expectations.appAppleID != nil,
            .appVersion: expectations.appVersion != nil, .device: expectations.deviceID != nil,
            .environment: expectations.environment != nil,
        ]
        return BindingScope(
            checked: Part.allCases.filter { given[$0] == true },
            unchecked: Part.allCases.filter { given[$0] != true },
            required: production ? [.bundleID, .appAppleID] : [.bundleID])
    }

    /// The error `--require-binding` makes of a check bound to no app.
    package func requiredFindings(_ options: InspectionOptions, document: String) -> [Finding] {
        guard options.requiresBinding, !isBound else { return [] }
        return [
            Finding(
                .bindingRequired, at: nil,
                "--require-binding: no \(required.filter { !checked.contains($0) }.map(\.rawValue).joined(separator: " or ")) was expected, so any app's genuine \(document) would pass; pass \(missingOptions.joined(separator: " and "))"
            )
        ]
    }

    /// One sentence for the text reports: what the verdict is bound to, or why it is not bound to an app.
    public func sentence(document: String) -> String {
        if !isBound {
            return "not bound to an app: only the signature and chain were judged, and any app's genuine \(document) "
                + "passes them — pass \(missingOptions.joined(separator: " and "))"
        }
        let names = checked.map(\.rawValue).joined(separator: ", ")
        let rest = unchecked.isEmpty ? "" : "; not checked: " + unchecked.map(\.rawValue).joined(separator: ", ")
        return "bound to the expected \(names)\(rest)"
    }
}

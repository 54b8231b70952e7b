import ReceiptDiagnostics
import ReceiptSuite

/// The families of flaws the catalogue covers.
package enum MutationGroup: String, Sendable, Hashable, CaseIterable {
    case baseline
    case encoding
    case signature
    case chain
    case structure
    case semantics
    case dates
    case inApp = "in-app"
    case types
    /// Every JWS mutation (a JWS entry's layer says which part it targets).
    case jws
}

/// One named flaw, of a receipt or of a JWS: what it does, which layer it targets, what a correct validator must
/// conclude, the finding `rcpt verify` reports for it, and who could make it. A receipt mutation edits a workspace
/// holding the input's blueprint, which then signs and post-processes the result (the initialisers here); a JWS
/// mutation makes a token from the baseline's context (JWSMutations.swift). Either way `apply` turns an input into
/// the mutated document.
public struct Mutation: Sendable {
    public let name: String
    package let group: MutationGroup
    /// One line saying what is wrong.
    package let summary: String
    /// The layer it targets: a receipt's encoding, container, signature, chain, payload, attribute or record; a
    /// token's header, signature, chain, payload, nesting, document or encoding.
    package let layer: String
    package let expected: ExpectedVerdict
    /// The finding code `rcpt verify` gives (an error for rejected inputs), if any.
    package let finding: String?
    /// Whether the result still carries a valid signature by the test CA over its content.
    package let signatureValid: Bool
    /// Who could make it and what accepting it costs.
    package let threat: Threat
    let make: @Sendable (_ input: [UInt8], _ kit: MutationKit, _ seed: UInt64) throws -> [UInt8]

    /// A receipt mutation `rcpt verify` judges with `finding` (or with no finding code, when nil).
    init(
        _ name: String, _ group: MutationGroup, layer: String, expected: ExpectedVerdict, finding: FindingCode?,
        signatureValid: Bool = true, _ summary: String,
        _ transform: @escaping @Sendable (inout MutationWorkspace) throws -> Void
    ) {
        self.init(
            name, group, layer: layer, expected: expected, code: finding?.rawValue, signatureValid: signatureValid,
            summary, transform)
    }

    /// A receipt mutation whose reading `rcpt verify` stops with `error`.
    init(
        _ name: String, _ group: MutationGroup, layer: String, expected: ExpectedVerdict, error: ErrorCode,
        signatureValid: Bool = true, _ summary: String,
        _ transform: @escaping @Sendable (inout MutationWorkspace) throws -> Void
    ) {
        self.init(
            name, group, layer: layer, expected: expected, code: error.rawValue, signatureValid: signatureValid,
            summary, transform)
    }

    private init(
        _ name: String, _ group: MutationGroup, layer: String, expected: ExpectedVerdict, code: String?,
        signatureValid: Bool, _ summary: String,
        _ transform: @escaping @Sendable (inout MutationWorkspace) throws -> Void
    ) {
        self.init(
            name: name, group: group, layer: layer, expected: expected, finding: code, signatureValid: signatureValid,
            summary: summary,
            threat: Threat.receipt(name: name, group: group, layer: layer, signatureValid: signatureValid)
        ) { input, kit, seed in
            var workspace = try MutationWorkspace.baseline(of: input, kit: kit, seed: seed)
            try transform(&workspace)
            return try workspace.build()
        }
    }

    /// Every field stored as given: what the kinds' initialisers end in.
    init(
        name: String, group: MutationGroup, layer: String, expected: ExpectedVerdict, finding: String?,
        signatureValid: Bool, summary: String, threat: Threat,
        make: @escaping @Sendable (_ input: [UInt8], _ kit: MutationKit, _ seed: UInt64) throws -> [UInt8]
    ) {
        self.name = name
        self.group = group
        self.summary = summary
        self.layer = layer
        self.expected = expected
        self.finding = finding
        self.signatureValid = signatureValid
        self.threat = threat
        self.make = make
    }

    /// Applies the mutation to `input` (a receipt raw, base64, PEM or JSON-wrapped; a JWS, a notification body or an
    /// API response: its first token), deterministically for `seed` (a JWS mutation takes none).
    public func apply(to input: [UInt8], kit: MutationKit, seed: UInt64 = 0) throws(MutationError) -> [UInt8] {
        do {
            return try make(input, kit, seed)
        } catch let error as MutationError {
            throw error
        } catch {
            throw MutationError(.mutationFailed, "\(name): \(error)")
        }
    }
}

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
}

/// One named flaw: what it does, which layer it targets, what a correct validator must conclude, and the finding
/// `rcpt verify` reports for it. `transform` edits a workspace holding the input's blueprint; the workspace then
/// signs and post-processes the result.
public struct Mutation: Sendable {
    public let name: String
    package let group: MutationGroup
    /// One line saying what is wrong.
    package let summary: String
    /// The layer of the receipt it targets: encoding, container, signature, chain, payload, attribute, record.
    package let layer: String
    package let expected: ExpectedVerdict
    /// The finding code `rcpt verify` gives (an error for rejected receipts), if any.
    package let finding: String?
    /// Whether the result still carries a valid signature by the test CA over its content.
    package let signatureValid: Bool
    /// Who could make it and what accepting it costs.
    package var threat: Threat {
        Threat.receipt(name: name, group: group, layer: layer, signatureValid: signatureValid)
    }
    let transform: @Sendable (inout MutationWorkspace) throws -> Void

    /// A mutation `rcpt verify` judges with `finding` (or with no finding code, when nil).
    init(
        _ name: String, _ group: MutationGroup, layer: String, expected: ExpectedVerdict, finding: FindingCode?,
        signatureValid: Bool = true, _ summary: String,
        _ transform: @escaping @Sendable (inout MutationWorkspace) throws -> Void
    ) {
        self.init(
            name, group, layer: layer, expected: expected, code: finding?.rawValue, signatureValid: signatureValid,
            summary, transform)
    }

    /// A mutation whose reading `rcpt verify` stops with `error`.
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
        self.name = name
        self.group = group
        self.summary = summary
        self.layer = layer
        self.expected = expected
        self.finding = code
        self.signatureValid = signatureValid
        self.transform = transform
    }

    /// Applies the mutation to a receipt (raw, base64, PEM or JSON-wrapped), deterministically for `seed`.
    public func apply(to input: [UInt8], kit: MutationKit, seed: UInt64) throws(MutationError) -> [UInt8] {
        var workspace = try MutationWorkspace.baseline(of: input, kit: kit, seed: seed)
        do {
            try transform(&workspace)
        } catch let error as MutationError {
            throw error
        } catch {
            throw MutationError(.mutationFailed, "\(name): \(error)")
        }
        return try workspace.build()
    }
}

/// What a correct receipt validator must do with a receipt.
public enum ExpectedVerdict: String, Sendable, Hashable, CaseIterable {
    case accept
    case reject
}

/// The families of flaws the catalogue covers.
public enum MutationGroup: String, Sendable, Hashable, CaseIterable {
    case baseline
    case encoding
    case signature
    case chain
    case structure
    case semantics
    case dates
    case inApp = "in-app"
}

/// One named flaw: what it does, which layer it targets, what a correct validator must conclude, and the finding
/// `rcpt verify` reports for it. `transform` edits a workspace holding the input's blueprint; the workspace then
/// signs and post-processes the result.
public struct Mutation: Sendable {
    public let name: String
    public let group: MutationGroup
    /// One line saying what is wrong.
    public let summary: String
    /// The layer of the receipt it targets: encoding, container, signature, chain, payload, attribute, record.
    public let layer: String
    public let expected: ExpectedVerdict
    /// The finding code `rcpt verify` gives (an error for rejected receipts), if any.
    public let finding: String?
    /// Whether the result still carries a valid signature by the test CA over its content.
    public let signatureValid: Bool
    let transform: @Sendable (inout MutationWorkspace) throws -> Void

    init(_ name: String, _ group: MutationGroup, layer: String, expected: ExpectedVerdict, finding: String?,
         signatureValid: Bool = true, _ summary: String,
         _ transform: @escaping @Sendable (inout MutationWorkspace) throws -> Void) {
        self.name = name
        self.group = group
        self.summary = summary
        self.layer = layer
        self.expected = expected
        self.finding = finding
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
            throw MutationError("mutation-failed", "\(name): \(error)")
        }
        return try workspace.build()
    }
}

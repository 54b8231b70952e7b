import ReceiptDiagnostics

/// Why a mutation could not be applied to an input.
public typealias MutationError = CodedError

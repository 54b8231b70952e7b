// `import Rcpt`: the library's one import. The front door (`AppStoreVerifier`, the typed models, `entitlements(of:at:)`)
// is declared here; what a caller also needs to read a failure or go below the front door is re-exported.
@_exported import ReceiptDiagnostics
@_exported import ReceiptValidation

import Foundation
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptPurchases
import ReceiptValidation

/// The front door: one verifier, configured once for an app, that verifies receipts, transactions, renewal info,
/// notifications and app transactions and returns each as its typed model, or throws a `VerificationFailure` with
/// every finding. `Sendable`: share one across a server's requests; a certificate chain it has verified is not
/// verified again (the process's chain cache), so each document costs little more than its own signature.
///
/// ```swift
/// let verifier = try AppStoreVerifier(bundleId: "com.example.app", appAppleId: 1234567890, environment: .production)
/// let transaction = try verifier.verifyTransaction(signedTransaction)
/// print(transaction.productId ?? "-", transaction.expiresDate ?? "no expiry")
/// ```
public struct AppStoreVerifier: Sendable {
    /// The certificates a document's chain must end at.
    public enum Roots: Sendable {
        /// Apple's own: Apple Root CA for receipts, Apple Root CA - G3 for JWS (both built in).
        case apple
        /// These certificates (PEM or DER each), for every kind: Xcode's StoreKit certificate, a test CA.
        case certificates([[UInt8]])
    }

    /// When a document's certificate chain must be valid.
    public enum ChainTime: Sendable, Hashable {
        /// At the document's own signing time (a JWS's `signedDate`, a receipt's creation date), as Apple's verifier
        /// does offline: a genuine document stays verifiable after its certificates expire.
        case signed
        /// Now (the clock, or `now` given to the verifier).
        case now
        /// At this date.
        case date(Date)
    }

    /// A configuration the verifier refuses.
    public enum ConfigurationError: Error, Sendable, Hashable {
        /// Production documents are verified against the app's App Store id, as Apple's verifier insists: without
        /// one, any app's genuine document would pass.
        case appAppleIdRequiredInProduction
        /// The bundle id is empty or white space.
        case bundleIdEmpty
        /// An App Store id that is not a positive number (Apple's are).
        case appAppleIdNotPositive(Int64)
        /// `.certificates([])`: no root, so nothing could verify.
        case noRoots
        /// Xcode signs with its own StoreKit certificate: give it as a root (`.certificates`).
        case xcodeNeedsItsCertificate
        /// An environment rcpt does not verify documents of (`LocalTesting`, Apple's library's name for documents it
        /// signs itself in tests, and any value Apple adds later).
        case unsupportedEnvironment(AppStoreEnvironment)
        /// A root that is not a certificate.
        case rootUnreadable(index: Int, reason: String)
        /// A chain time (or `now`) outside the years 1 to 9999, or not a finite time.
        case unsupportedChainTime(Date)
    }

    public let bundleId: String
    public let appAppleId: Int64?
    public let environment: AppStoreEnvironment
    let options: InspectionOptions

    /// A verifier for the app `bundleId` (and, in Production, `appAppleId`) in `environment`. `chainTime`: when
    /// certificates must be valid. `now`: the current time for what "expired" and "in the future" mean, the clock
    /// when nil.
    public init(
        bundleId: String, appAppleId: Int64?, environment: AppStoreEnvironment, roots: Roots = .apple,
        chainTime: ChainTime = .signed, now: Date? = nil
    ) throws(ConfigurationError) {
        guard !bundleId.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .bundleIdEmpty }
        if let appAppleId, appAppleId <= 0 { throw .appAppleIdNotPositive(appAppleId) }
        guard let expected = ReceiptEnvironment(rawValue: environment.rawValue) else {
            throw .unsupportedEnvironment(environment)
        }
        if environment == .production && appAppleId == nil { throw .appAppleIdRequiredInProduction }
        var options: InspectionOptions
        switch roots {
        case .apple:
            if environment == .xcode { throw .xcodeNeedsItsCertificate }
            do {
                options = InspectionOptions(anchors: try TrustAnchors.appleRoot())
            } catch {
                throw .rootUnreadable(index: 0, reason: error.message)
            }
            options.jwsAnchors = .appleRootG3
        case .certificates(let files):
            guard !files.isEmpty else { throw .noRoots }
            var certificates: [Certificate] = []
            for (index, file) in files.enumerated() {
                do {
                    certificates += try Certificate.load(fileContents: file)
                } catch {
                    throw .rootUnreadable(index: index, reason: error.message)
                }
            }
            options = InspectionOptions(anchors: TrustAnchors(certificates))
        }
        options.expectations = Expectations(
            bundleID: bundleId, appAppleID: appAppleId.map { String($0) }, environment: expected)
        if let now {
            // A time no receipt date can hold (before year 1, after 9999, not finite) is refused, never trapped on.
            guard let seconds = Self.epochSeconds(now) else { throw .unsupportedChainTime(now) }
            options.now = seconds
        }
        switch chainTime {
        case .signed: options.time = .signed
        case .now: options.time = .now
        case .date(let date):
            guard let seconds = Self.epochSeconds(date),
                case .success(let parsed) = ReceiptDate.parse(
                    Array(ReceiptDate.format(epochSeconds: seconds).utf8)[...])
            else { throw .unsupportedChainTime(date) }
            options.time = .date(parsed)
        }
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.options = options
    }

    /// A receipt: DER, base64 (as the app sends it), or a verifyReceipt request body. `deviceId`: the device's
    /// `identifierForVendor`, when the receipt must be the one issued to it (its hash).
    public func verifyReceipt(_ receipt: some Collection<UInt8>, deviceId: UUID? = nil) throws(VerificationFailure)
        -> AppReceipt
    {
        guard case .receipt(let model) = try verify(receipt, expecting: .receipt, deviceId: deviceId) else {
            throw unreachable
        }
        return model
    }

    /// A signed transaction (`signedTransactionInfo`, StoreKit 2's `jwsRepresentation`). `deviceId`: the
    /// device's `deviceVerificationID`, when a token the app sent must be the one issued to it.
    public func verifyTransaction(_ signedTransaction: String, deviceId: UUID? = nil) throws(VerificationFailure)
        -> JWSTransaction
    {
        guard
            case .transaction(let model) = try verify(
                signedTransaction.utf8, expecting: .transaction, deviceId: deviceId)
        else { throw unreachable }
        return model
    }

    /// Signed renewal info (`signedRenewalInfo`).
    public func verifyRenewalInfo(_ signedRenewalInfo: String) throws(VerificationFailure) -> JWSRenewalInfo {
        guard case .renewalInfo(let model) = try verify(signedRenewalInfo.utf8, expecting: .renewalInfo) else {
            throw unreachable
        }
        return model
    }

    /// A server notification: the body Apple posts (`{"signedPayload": …}`) or the token alone. Its signed
    /// transaction and renewal info are verified with it.
    public func verifyNotification(_ body: some Collection<UInt8>) throws(VerificationFailure) -> ServerNotification {
        guard case .notification(let model) = try verify(body, expecting: .notification) else { throw unreachable }
        return model
    }

    /// A signed app transaction (StoreKit 2's `AppTransaction.jwsRepresentation`). `deviceId`: the device's
    /// `deviceVerificationID`, when the token must be the one issued to it.
    public func verifyAppTransaction(_ signedAppTransaction: String, deviceId: UUID? = nil)
        throws(VerificationFailure) -> AppTransaction
    {
        guard
            case .appTransaction(let model) = try verify(
                signedAppTransaction.utf8, expecting: .appTransaction, deviceId: deviceId)
        else { throw unreachable }
        return model
    }

    /// Any document rcpt reads (a receipt in any wrapping, a token, a notification body, an App Store Server API
    /// response), verified and typed by its kind.
    public func verify(_ document: some Collection<UInt8>) throws(VerificationFailure) -> VerifiedDocument {
        try verify(document, expecting: nil)
    }

    /// The whole inspection of `document` under this verifier's configuration, whatever the verdict: every finding
    /// (warnings too, which a verified model does not carry), the chain, what the verdict was bound to.
    public func inspect(_ document: some Collection<UInt8>, deviceId: UUID? = nil) -> Inspection {
        var options = self.options
        if let deviceId {
            options.expectations.deviceID = withUnsafeBytes(of: deviceId.uuid) { Array($0) }
        }
        return Inspector.inspect(Array(document), options: options)
    }

    private var unreachable: VerificationFailure { VerificationFailure(findings: [], readError: nil) }

    private func verify(_ document: some Collection<UInt8>, expecting expected: DocumentType?, deviceId: UUID? = nil)
        throws(VerificationFailure) -> VerifiedDocument
    {
        let inspection = inspect(document, deviceId: deviceId)
        guard inspection.readError == nil else {
            throw VerificationFailure(findings: inspection.findings, readError: inspection.readError)
        }
        // A forgery is reported as one whatever its kind; a genuine document of another kind as the wrong kind.
        guard inspection.isValid else { throw VerificationFailure(findings: inspection.findings, readError: nil) }
        let typed = Self.model(of: inspection)
        if let expected, typed?.type != expected {
            throw VerificationFailure(expected: expected, found: typed?.type ?? .other, findings: inspection.findings)
        }
        guard let typed else {
            throw VerificationFailure(expected: .other, found: .other, findings: inspection.findings)
        }
        return typed
    }

    /// The typed model of what an inspection read; nil for a payload of no kind Apple signs.
    static func model(of inspection: Inspection) -> VerifiedDocument? {
        if let receipt = inspection.receipt?.receipt { return .receipt(AppReceipt(receipt)) }
        guard let tokens = inspection.jws?.tokens else { return nil }
        let models = tokens.compactMap(model(of:))
        if tokens.count == 1 { return models.first }
        return models.count == tokens.count ? .several(models) : nil
    }

    /// `date` in whole seconds since 1970, when it lies in the years 1 to 9999 (what a receipt date can hold).
    static func epochSeconds(_ date: Date) -> Int64? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let years = MillisecondUTC.years1To9999
        guard seconds.isFinite, seconds >= Double(years.lowerBound / 1000), seconds < Double(years.upperBound / 1000)
        else { return nil }
        return Int64(seconds)
    }

    /// The typed model of one verified token, its nested tokens decoded where its kind carries them.
    static func model(of token: JWSVerification) -> VerifiedDocument? {
        guard let payload = token.token.payload else { return nil }
        let claims = PayloadClaims(payload)
        switch token.binding.kind {
        case .transaction: return .transaction(JWSTransaction(claims))
        case .renewalInfo: return .renewalInfo(JWSRenewalInfo(claims))
        case .appTransaction: return .appTransaction(AppTransaction(claims))
        case .notification:
            return .notification(
                // Exactly at the path Apple's documents hold it: a token at `x.data.signedTransactionInfo` is another
                // (a decoy placed before `data` was once shown as the transaction).
                ServerNotification(claims) { path in
                    token.nested.first { $0.path == path }?.token.payload.map { PayloadClaims($0) }
                })
        case .unknown: return nil
        }
    }
}

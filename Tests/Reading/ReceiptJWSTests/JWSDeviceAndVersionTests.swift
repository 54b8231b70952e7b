import Foundation
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJWS
import ReceiptModel
import ReceiptSigning
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// `--device-id` and `--app-version` on Apple's JWS: a StoreKit token's deviceVerification is SHA-384 of the
/// lowercase nonce and the lowercase device verification UUID (Apple's recipe), an app transaction's
/// applicationVersion is its app version; a token that carries no device verification is a warning, never a pass.
@Suite("JWS device and app version expectations")
struct JWSDeviceAndVersionTests {
    static let device = "0EE7C0DE-0000-4000-8000-00000000BEEF"
    static let nonce = "7EDEA87D-98F0-42D0-9682-49CA81022F73"

    /// A transaction whose deviceVerification is computed, as Apple documents, for `device`.
    static func transaction(for device: String) throws -> String {
        let input = Array((nonce.lowercased() + device.lowercased()).utf8)
        let verification = Base64.encode(try Digest.hash(input, algorithm: .sha384))
        let extra = #","deviceVerification":"\#(verification)","deviceVerificationNonce":"\#(nonce)""#
        return try JWSFixtures.signer().sign(payload: Array(JWSFixtures.transaction(extra: extra).utf8))
    }

    static func codes(_ token: String, device: String? = nil, appVersion: String? = nil) -> [String] {
        let expectations = Expectations(appVersion: appVersion, deviceID: device.flatMap(Expectations.parseDeviceID))
        return judged(JWSFixtures.inspect(token, options: JWSFixtures.options(expectations: expectations)))
    }

    /// The codes of the token's findings (a test signature's s is low: none of them is the high-s one).
    static func judged(_ inspection: JWSInspection) -> [String] {
        inspection.tokens.flatMap { $0.findings.map(\.code) }
    }

    @Test func aTokenIssuedToTheDeviceIsBoundToIt() throws {
        let token = try Self.transaction(for: Self.device)
        #expect(Self.codes(token, device: Self.device) == [])
        // The device id is read case-insensitively, as a UUID is.
        #expect(Self.codes(token, device: Self.device.lowercased()) == [])
    }

    @Test func aTokenIssuedToAnotherDeviceIsRefused() throws {
        let token = try Self.transaction(for: "11111111-2222-3333-4444-555555555555")
        #expect(Self.codes(token, device: Self.device) == ["jws-device-mismatch"])
        #expect(
            JWSFixtures.inspect(
                token,
                options: JWSFixtures.options(
                    expectations: Expectations(deviceID: Expectations.parseDeviceID(Self.device)))
            ).isValid == false)
    }

    /// A device binding asked for and not carried fails, as a receipt's `hash-unverifiable` does: a library caller
    /// who passed the device id sees no warning, and any device's copy of the token would pass.
    @Test func aTokenWithoutDeviceVerificationFailsTheDeviceAskedFor() throws {
        let token = try JWSFixtures.signer().sign(payload: Array(JWSFixtures.transaction().utf8))
        let inspection = JWSFixtures.inspect(
            token,
            options: JWSFixtures.options(
                expectations: Expectations(deviceID: Expectations.parseDeviceID(Self.device))))
        #expect(Self.judged(inspection) == ["jws-device-unverifiable"])
        #expect(!inspection.isValid)
        // Without a device asked for, the same token is valid.
        #expect(JWSFixtures.inspect(token, options: JWSFixtures.options()).isValid)
        // A Mac's MAC address verifies receipts, not tokens.
        #expect(
            Self.codes(try Self.transaction(for: Self.device), device: "aa:bb:cc:dd:ee:ff") == [
                "jws-device-unverifiable"
            ])
    }

    /// Apple's own Xcode-signed tokens: the device they were made for is not published, so any device given is
    /// another one; the check reads the real claims.
    @Test(arguments: [
        "apple-swift-xcode-xcode-signed-transaction.jws", "apple-swift-xcode-xcode-signed-renewal-info.jws",
        "apple-swift-xcode-xcode-signed-app-transaction.jws",
    ])
    func realStoreKitTokensAreCheckedForTheirDevice(_ name: String) throws {
        let bytes = Fixtures.bytes(JWSSampleTests.directory + name)
        let options = InspectionOptions(
            anchors: try JWSSampleTests.anchors(for: name),
            expectations: Expectations(deviceID: Expectations.parseDeviceID(Self.device)),
            now: 1_795_000_000)
        let codes = JWSInspector.inspect(bytes, options: options).tokens.flatMap { $0.findings.map(\.code) }
        #expect(codes.contains("jws-device-mismatch"))
    }

    @Test func anAppTransactionIsBoundToItsApplicationVersion() throws {
        let name = "apple-swift-xcode-xcode-signed-app-transaction.jws"
        let bytes = Fixtures.bytes(JWSSampleTests.directory + name)
        func codes(_ version: String) throws -> [String] {
            let options = InspectionOptions(
                anchors: try JWSSampleTests.anchors(for: name),
                expectations: Expectations(appVersion: version), now: 1_795_000_000)
            return JWSInspector.inspect(bytes, options: options).tokens.flatMap { $0.findings.map(\.code) }
        }
        #expect(!(try codes("1")).contains("app-version-mismatch"))
        #expect(try codes("2").contains("app-version-mismatch"))
        // A transaction carries no app version: --app-version does not judge it.
        #expect(Self.codes(try Self.transaction(for: Self.device), appVersion: "2") == [])
    }
}

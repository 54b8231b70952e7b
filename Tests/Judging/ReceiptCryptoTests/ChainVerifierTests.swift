import ReceiptCrypto
import Testing

@Suite struct ChainVerifierTests {
    @Test func verifiesWWDR2008ToAppleRootIn2012() throws {
        let root = try Fixtures.certificate(Fixtures.appleRootFile)
        let wwdr = try Fixtures.certificate(Fixtures.wwdr2008File)
        let result = ChainVerifier.verify(leaf: wwdr, intermediates: [], anchors: [root], at: Fixtures.january2012)
        #expect(result.errors == [])
        #expect(result.isValid)
        #expect(result.anchorSubject == Fixtures.appleRootSubject)
        #expect(result.path == [Fixtures.wwdrSubject, Fixtures.appleRootSubject])
    }

    @Test func rejectsWWDR2008AsExpiredIn2020() throws {
        let root = try Fixtures.certificate(Fixtures.appleRootFile)
        let wwdr = try Fixtures.certificate(Fixtures.wwdr2008File)
        let result = ChainVerifier.verify(leaf: wwdr, intermediates: [], anchors: [root], at: Fixtures.january2020)
        #expect(!result.isValid)
        #expect(result.anchorSubject == nil)
        #expect(result.errors == ["certificate has expired (depth 0: \(Fixtures.wwdrSubject))"])
        #expect(result.path == [Fixtures.wwdrSubject, Fixtures.appleRootSubject])
    }

    @Test func rejectsWWDR2008AsNotYetValidIn2007() throws {
        let root = try Fixtures.certificate(Fixtures.appleRootFile)
        let wwdr = try Fixtures.certificate(Fixtures.wwdr2008File)
        // 2007-01-01T00:00:00Z: after the root's notBefore, before the intermediate's.
        let result = ChainVerifier.verify(leaf: wwdr, intermediates: [], anchors: [root], at: 1_167_609_600)
        #expect(!result.isValid)
        #expect(result.errors == ["certificate is not yet valid (depth 0: \(Fixtures.wwdrSubject))"])
    }

    @Test func rejectsChainWithoutAnchors() throws {
        let wwdr = try Fixtures.certificate(Fixtures.wwdr2008File)
        let result = ChainVerifier.verify(leaf: wwdr, intermediates: [], anchors: [], at: Fixtures.january2012)
        #expect(!result.isValid)
        #expect(result.anchorSubject == nil)
        #expect(result.errors.first == "unable to get local issuer certificate (depth 0: \(Fixtures.wwdrSubject))")
        #expect(result.path == [Fixtures.wwdrSubject])
    }

    @Test func neverTrustsAnEmbeddedRootPassedAsIntermediate() throws {
        let root = try Fixtures.certificate(Fixtures.appleRootFile)
        let wwdr = try Fixtures.certificate(Fixtures.wwdr2008File)
        let result = ChainVerifier.verify(leaf: wwdr, intermediates: [root], anchors: [], at: Fixtures.january2012)
        #expect(!result.isValid)
        #expect(result.errors.contains { $0.hasPrefix("self-signed certificate in certificate chain") })
        #expect(result.path == [Fixtures.wwdrSubject, Fixtures.appleRootSubject])
    }

    @Test func rejectsChainToTheWrongAnchor() throws {
        let rootG3 = try Fixtures.certificate("AppleRootCA-G3.cer")
        let wwdr = try Fixtures.certificate(Fixtures.wwdr2008File)
        let result = ChainVerifier.verify(leaf: wwdr, intermediates: [], anchors: [rootG3], at: Fixtures.january2012)
        #expect(!result.isValid)
        #expect(!result.errors.isEmpty)
    }

    @Test func verifiesStoreKitTestCertificateAsItsOwnAnchor() throws {
        let storeKit = try Fixtures.certificate(Fixtures.storeKitFile)
        let result = ChainVerifier.verify(
            leaf: storeKit, intermediates: [], anchors: [storeKit], at: Fixtures.january2020 + 86_400 * 365)
        #expect(result.errors == [])
        #expect(result.isValid)
        #expect(result.anchorSubject == Fixtures.storeKitSubject)
        #expect(result.path == [Fixtures.storeKitSubject])
    }

    @Test func rejectsStoreKitTestCertificatePassedOnlyAsIntermediate() throws {
        let storeKit = try Fixtures.certificate(Fixtures.storeKitFile)
        let result = ChainVerifier.verify(leaf: storeKit, intermediates: [storeKit], anchors: [], at: 1_609_459_200)
        #expect(!result.isValid)
        #expect(result.anchorSubject == nil)
        #expect(result.errors.contains { $0.hasPrefix("self-signed certificate") })
    }

    @Test func verifiesECDSAChainFromWWDRG6ToAppleRootG3() throws {
        let rootG3 = try Fixtures.certificate("AppleRootCA-G3.cer")
        let wwdrG6 = try Fixtures.certificate("AppleWWDRCAG6.cer")
        // 2022-01-01T00:00:00Z.
        let result = ChainVerifier.verify(leaf: wwdrG6, intermediates: [], anchors: [rootG3], at: 1_640_995_200)
        #expect(result.errors == [])
        #expect(result.isValid)
        #expect(result.anchorSubject == rootG3.subject)
    }

    @Test func picksTheMatchingAnchorAmongSeveral() throws {
        let anchors = try ["AppleRootCA-G3.cer", Fixtures.storeKitFile, Fixtures.appleRootFile].map(
            Fixtures.certificate)
        let wwdr = try Fixtures.certificate(Fixtures.wwdr2008File)
        let result = ChainVerifier.verify(leaf: wwdr, intermediates: [], anchors: anchors, at: Fixtures.january2012)
        #expect(result.isValid)
        #expect(result.anchorSubject == Fixtures.appleRootSubject)
    }
}

import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiff
import ReceiptModel
import ReceiptTestSupport
import Testing

@Suite("Matching rules")
struct MatchingTests {
    static let tid = TestPayload.transactionID

    static func diff(_ a: TestPayload, _ b: TestPayload, options: DiffOptions = DiffOptions(layers: [.receipt]))
        throws -> DiffResult
    {
        try Diffing.diff(
            try TestReceipts.signed(payload: a.encoded()), try TestReceipts.signed(payload: b.encoded()),
            options: options)
    }

    // MARK: - In-app records

    @Test func recordsMatchByTransactionIDWhateverTheirOrder() throws {
        var a = TestPayload.subscription(records: 5)
        a.sorted = false
        var b = a
        b.records.reverse()
        b.setField(record: 0, .ia5(1712, "2024-06-02T00:00:00Z"))  // the last record of A
        let result = try Self.diff(a, b)
        #expect(Diffing.paths(result) == ["in_app[transaction_id=\(Self.tid(4))].cancellation_date"])
    }

    @Test func recordsWithoutTransactionIDMatchByOriginalIDAndPurchaseDate() throws {
        var a = TestPayload.subscription()
        for index in a.records.indices { a.records[index].removeAll { $0.type == 1703 } }
        a.sorted = false
        let b = a.with { $0.setField(record: 1, .ia5(1708, "2024-04-01T00:00:00Z")) }
        let result = try Self.diff(a, b)
        #expect(
            Diffing.paths(result) == [
                "in_app[original_transaction_id=1000000000000001,purchase_date=2024-01-31T00:00:00Z].expires_date"
            ])
    }

    @Test func changedTransactionIDFallsBackToOriginalIDAndPurchaseDate() throws {
        let a = TestPayload.subscription()
        let b = a.with { $0.records[1].removeAll { $0.type == 1703 } }
        let result = try Self.diff(a, b)
        #expect(Diffing.paths(result) == ["in_app[transaction_id=\(Self.tid(1))].transaction_id"])
        #expect(result.changes.first?.kind == .removed)
    }

    @Test func recordsWithoutIDsMatchByPosition() throws {
        var a = TestPayload.subscription()
        a.records = [
            [.integer(1701, 1), .utf8(1702, "coins")], [.integer(1701, 2), .utf8(1702, "coins")],
            [.integer(1701, 3), .utf8(1702, "gems")],
        ]
        a.sorted = false
        let b = a.with { $0.setField(record: 1, .integer(1701, 5)) }
        let result = try Self.diff(a, b)
        #expect(Diffing.paths(result) == ["in_app[index=1].quantity"])
    }

    @Test func recordLosingItsOnlyIDStillMatchesByPosition() throws {
        var a = TestPayload.subscription()
        a.records = [
            [
                .integer(1701, 1), .utf8(1702, "pass.premium"), .utf8(1703, "0"),
                .ia5(1704, "2023-10-19T01:45:36Z"),
            ]
        ]
        let b = a.with { $0.records[0].removeAll { $0.type == 1703 } }
        let result = try Self.diff(a, b)
        #expect(Diffing.paths(result) == ["in_app[transaction_id=0].transaction_id"])
    }

    @Test func recordsWithDifferentTransactionIDsAreNeverPaired() throws {
        var a = TestPayload.subscription()
        a.records = [TestPayload.record(index: 0)]
        let b = a.with { $0.records = [TestPayload.record(index: 1)] }
        let result = try Self.diff(a, b)
        #expect(
            Diffing.paths(result) == [
                "in_app[transaction_id=\(Self.tid(0))]",
                "in_app[transaction_id=\(Self.tid(1))]",
            ])
        #expect(result.changes.map(\.kind) == [.removed, .added])
    }

    @Test func duplicateTransactionIDsPairInOrder() throws {
        var a = TestPayload.subscription()
        a.records = [TestPayload.record(index: 0), TestPayload.record(index: 0)]
        a.sorted = false
        let b = a.with { $0.setField(record: 1, .ia5(1708, "2030-01-01T00:00:00Z")) }
        let result = try Self.diff(a, b)
        #expect(Diffing.paths(result) == ["in_app[transaction_id=\(Self.tid(0))#1].expires_date"])
    }

    @Test func addedRecordFieldsAreShownInTypeOrder() throws {
        let a = TestPayload.subscription()
        let b = a.with { $0.records.append(TestPayload.record(index: 3)) }
        let result = try Self.diff(a, b)
        guard case .fields(let fields)? = result.changes.first?.new else {
            Issue.record("an added record carries its fields")
            return
        }
        #expect(
            fields.map(\.name) == [
                "quantity", "product_id", "transaction_id", "purchase_date",
                "original_transaction_id", "original_purchase_date", "expires_date",
                "web_order_line_item_id", "cancellation_date", "is_trial_period",
                "is_in_intro_offer_period",
            ])
        #expect(fields.first { $0.name == "transaction_id" }?.value == .text(Self.tid(3)))
    }

    @Test func transactionIDsThatNeedQuotingStayInsideTheirBrackets() throws {
        var a = TestPayload.subscription()
        a.records = [[.utf8(1703, "a]b \"c\""), .integer(1701, 1)]]
        let b = a.with { $0.setField(record: 0, .integer(1701, 2)) }
        let result = try Self.diff(a, b)
        #expect(Diffing.paths(result) == [#"in_app[transaction_id="a]b \"c\""].quantity"#])
    }

    // MARK: - Attributes

    @Test func duplicateAttributesMatchByOccurrence() throws {
        let a = TestPayload.subscription().with { $0.attributes.append(.utf8(2, "com.example.weather.second")) }
        var b = a
        b.attributes[b.attributes.count - 1] = .utf8(2, "com.example.weather.other")
        let result = try Self.diff(a, b)
        #expect(Diffing.paths(result) == ["attributes[type=2#1].value"])
    }

    @Test func attributeOrderIsEncodingOnly() throws {
        var a = TestPayload.subscription()
        a.sorted = false
        var b = a
        b.attributes.reverse()
        #expect(try Self.diff(a, b).isEqual)
    }

    @Test func unknownAttributesAreComparedLikeKnownOnes() throws {
        let a = TestPayload.subscription().with { $0.attributes.append(.integer(4242, 7)) }
        let b = TestPayload.subscription().with { $0.attributes.append(.integer(4242, 8)) }
        let result = try Self.diff(a, b)
        #expect(Diffing.paths(result) == ["attributes[type=4242#0].value"])
        #expect(result.changes.first?.label == "type_4242")
    }

    @Test func nonMinimalIntegerIsAnEncodingDifference() throws {
        let a = TestPayload.subscription().with { $0.setAttribute(.integer(1, 5)) }
        let padded = AttributeSpec(type: 1, value: [0x02, 0x02, 0x00, 0x05])  // INTEGER 5 with a redundant octet
        let b = TestPayload.subscription().with { $0.setAttribute(padded) }
        #expect(try Self.diff(a, b).isEqual)
        let encoding = try Self.diff(a, b, options: DiffOptions(layers: [.receipt], encoding: true))
        #expect(
            Diffing.paths(encoding) == [
                "attributes[type=1#0].encodedLength", "attributes[type=1#0].raw",
                "payload.encoding.nonMinimalInteger",
            ])
    }

    // MARK: - Certificates

    @Test func certificatesMatchByFingerprintWhateverTheirOrder() throws {
        let chain = try #require(TestChain.shared)
        let payload = TestPayload.subscription().encoded()
        let apple = try chain.sign(payload)
        let reversed = try chain.sign(payload, certificates: [chain.root, chain.intermediate, chain.leaf])
        #expect(try Diffing.diff(apple, reversed).isEqual)
        let encoding = try Diffing.diff(apple, reversed, options: DiffOptions(layers: [.certificates], encoding: true))
        #expect(
            Diffing.paths(encoding) == [
                "certificates[sha256=\(chain.leaf.sha256Fingerprint)].index",
                "certificates[sha256=\(chain.root.sha256Fingerprint)].index",
            ])
    }

    @Test func renewedSigningCertificateIsChangedFieldByField() throws {
        let chain = try #require(TestChain.shared)
        let renewed = try chain.renewed()
        let payload = TestPayload.subscription().encoded()
        let result = try Diffing.diff(try chain.sign(payload), try renewed.sign(payload))
        let leaf = "certificates[sha256=\(chain.leaf.sha256Fingerprint)]"
        let paths = Diffing.paths(result)
        for expected in [
            "\(leaf).sha256Fingerprint", "\(leaf).serial", "\(leaf).notBefore", "\(leaf).notAfter",
            "signers[0].serial", "signers[0].signature", "signers[0].certificate",
        ] {
            #expect(paths.contains(expected), "\(expected) in \(paths)")
        }
        #expect(result.changes.allSatisfy { $0.kind == .changed }, "\(paths)")
        #expect(result.changes.allSatisfy { $0.layer == .certificates || $0.layer == .signers }, "\(paths)")
        #expect(Diffing.change(result, "\(leaf).serial")?.new == .word("04"))
        #expect(Diffing.change(result, "signers[0].certificate")?.new == .word(renewed.leaf.sha256Fingerprint))
    }

    @Test func unrelatedChainIsRemovedAndAdded() throws {
        let chain = try #require(TestChain.shared)
        let payload = TestPayload.subscription().encoded()
        let result = try Diffing.diff(
            try TestReceipts.signed(payload: payload), try chain.sign(payload),
            options: DiffOptions(layers: [.certificates]))
        #expect(result.count(.removed) == 3)
        #expect(result.count(.added) == 3)
        #expect(result.count(.changed) == 0)
    }

    @Test func onlyTheChosenLayersAreCompared() throws {
        let chain = try #require(TestChain.shared)
        let payload = TestPayload.subscription().encoded()
        let edited = TestPayload.subscription().with { $0.setAttribute(.utf8(3, "43")) }.encoded()
        let result = try Diffing.diff(
            try chain.sign(payload), try chain.renewed().sign(edited),
            options: DiffOptions(layers: [.certificates, .receipt]))
        #expect(Set(result.changes.map(\.layer)) == [.certificates, .receipt])
    }
}

@Suite("Hash join")
struct HashJoinTests {
    @Test func equalKeysPairInOrderOfOccurrence() throws {
        let a = TestPayload.subscription()
        var b = a
        b.records.insert(TestPayload.record(index: 0), at: 0)  // a second record with transaction id #0
        let result = try Diffing.diff(
            try TestReceipts.signed(payload: a.encoded()),
            try TestReceipts.signed(payload: b.encoded()),
            options: DiffOptions(layers: [.receipt]))
        #expect(Diffing.paths(result) == ["in_app[transaction_id=\(TestPayload.transactionID(0))#1]"])
        #expect(result.changes.first?.kind == .added)
    }

    /// Ten thousand records, every one changed, each paired with its own (no record reported added or removed).
    /// Pairwise matching would compare 10^8 record pairs; a hash join does 10^4 lookups. (No time is asserted: a
    /// test must pass on a busy machine.)
    @Test func tenThousandRecordsWithEveryRecordChangedArePairedWithTheirOwn() throws {
        let a = SyntheticReceipt(records: 10_000, seed: 1)
        let b = SyntheticReceipt(records: 10_000, seed: 2)
        let result = try Diffing.diff(
            try TestReceipts.signed(a), try TestReceipts.signed(b),
            options: DiffOptions(layers: [.receipt]))
        #expect(result.changes.count > 19_000)
        #expect(result.count(.added) == 0 && result.count(.removed) == 0)
    }
}

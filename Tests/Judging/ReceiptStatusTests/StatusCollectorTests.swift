import ReceiptPurchases
import ReceiptStatus
import Testing

/// `rcpt status` takes its documents one at a time and keeps a copy's statements once: the answer is the one every
/// copy gives, the place it names the one the resolution chooses among them, and what is kept does not grow with
/// the copies (issue #38: memory flat over 100 000 renewal-info files).
@Suite("Status: copies of a document")
struct StatusCollectorTests {
    typealias L = Lifecycle
    static let product = "com.example.lifecycle.monthly"

    /// A subscription bought on day 0 (its transaction in a history response), its renewal info of day 2, and a
    /// refund notification on day 10 that restates the transaction, refunded on day 9.
    static func life() throws -> Lifecycle {
        var life = Lifecycle()
        let bought = try L.transaction(
            "101", original: "100", product: product, purchased: L.at(0), expires: L.at(30), signed: L.at(1))
        let refunded = try L.transaction(
            "101", original: "100", product: product, purchased: L.at(0), expires: L.at(30), revoked: L.at(9),
            reason: 1, signed: L.at(10))
        life.add("history.json", L.history([bought]))
        life.add("renewal.jws", try L.renewal(original: "100", product: product, signed: L.at(2)))
        life.add("refund.json", try L.notification("REFUND", signed: L.at(10), transaction: refunded))
        return life
    }

    /// `status` with every evidence's document named without the `prefix` a copy's name starts with.
    static func unprefixed(_ evidence: [StatusEvidence], _ prefix: String) -> [StatusEvidence] {
        evidence.map { evidence in
            var named = evidence
            if named.document.hasPrefix(prefix) { named.document.removeFirst(prefix.count) }
            return named
        }
    }

    @Test func copiesChangeNothingButThePlaceNamed() throws {
        let life = try Self.life()
        var copied = life
        // Copies given after the originals: one set whose names sort before theirs, one after.
        for document in life.documents { copied.add("0-" + document.name, bytes: document.bytes) }
        for document in life.documents { copied.add("z-" + document.name, bytes: document.bytes) }
        for day: Int64 in [5, 9, 12, 40] {
            guard case .success(let once) = life.status(at: L.at(day)),
                case .success(let thrice) = copied.status(at: L.at(day))
            else {
                Issue.record("mixed apps at day \(day)")
                continue
            }
            #expect(thrice.documents.count == 9)
            #expect(thrice.documents.allSatisfy { $0.use == .counted })
            let evidence = thrice.products.flatMap(\.evidence)
            // A transaction's place: the first by document name, as the resolution orders statements alike.
            #expect(evidence.filter { $0.kind == "transaction" }.allSatisfy { $0.document.hasPrefix("0-") })
            // A renewal's: the first given.
            #expect(evidence.filter { $0.kind == "renewal-info" }.allSatisfy { $0.document == "renewal.jws" })
            let renamed = thrice.products.map { product in
                var renamed = product
                renamed.evidence = Self.unprefixed(product.evidence, "0-")
                return renamed
            }
            #expect(renamed == once.products, "day \(day)")
            #expect(thrice.conflicts.count == once.conflicts.count, "day \(day)")
            for (copy, original) in zip(thrice.conflicts, once.conflicts) {
                #expect(copy.claim == original.claim && copy.used.value == original.used.value)
                #expect(copy.overruled.value == original.overruled.value)
                #expect(copy.overruled.evidence.document == "0-" + original.overruled.evidence.document)
            }
        }
    }

    @Test func copiesKeepOneSetOfStatements() throws {
        let renewal = Array(try L.renewal(original: "100", product: Self.product, signed: L.at(2)).utf8)
        let later = Array(try L.renewal(original: "100", product: Self.product, signed: L.at(3)).utf8)
        let documents = Lifecycle.read((0..<60).map { ("\($0).jws", $0 == 30 ? later : renewal) })
        var collector = CustomerStatus.Collector(at: L.at(5))
        for document in documents { collector.add(document) }
        // The 59 copies are one set of statements; the renewal signed a day later is another.
        #expect(collector.keptStatements == 2)
        #expect(collector.uses.count == 60)
        guard case .success(let status) = collector.resolve() else {
            Issue.record("mixed apps")
            return
        }
        #expect(status.documents.map(\.name) == (0..<60).map { "\($0).jws" })
        #expect(status.products.first?.evidence.map(\.document) == ["30.jws"])
    }
}

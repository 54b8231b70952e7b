import Foundation
import ReceiptJSON
import ReceiptPurchases

/// A payload object's claims as the typed models take them: `Claims` (the one reader of claims) with dates as `Date`,
/// Apple's enumerations as their values, identifiers as text whether Apple wrote a string or a number.
struct PayloadClaims {
    let claims: Claims

    init(_ document: JSONDocument, object: Int? = nil) { claims = Claims(document, object: object) }

    func string(_ name: String) -> String? { claims.string(name) }
    func identifier(_ name: String) -> String? { claims.identifier(name) }
    func integer(_ name: String) -> Int64? { claims.integer(name) }
    func bool(_ name: String) -> Bool? { claims.bool(name) }
    func uuid(_ name: String) -> UUID? { claims.string(name).flatMap(UUID.init(uuidString:)) }

    /// A millisecond date claim as a `Date`; nil when absent or not a date rcpt's verifier reads.
    func date(_ name: String) -> Date? {
        claims.milliseconds(name).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    func value<Value: AppleValue>(_ name: String) -> Value? where Value.RawValue == String {
        claims.string(name).map(Value.init(rawValue:))
    }

    func value<Value: AppleValue>(_ name: String) -> Value? where Value.RawValue == Int64 {
        claims.integer(name).map(Value.init(rawValue:))
    }

    /// A claim that is an array of strings (the strings in it; nil when absent or not an array).
    func strings(_ name: String) -> [String]? {
        guard let node = claims.node(name), claims.document.nodes[node].kind == .array else { return nil }
        return claims.document.children(of: node).compactMap { claims.document.string($0) }
    }

    /// The claims of the object member `name`, when it is an object.
    func object(_ name: String) -> PayloadClaims? {
        guard let node = claims.node(name), claims.document.nodes[node].kind == .object else { return nil }
        return PayloadClaims(claims.document, object: node)
    }
}

import FuzzSupport
import ReceiptBuilding
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptMutation
import ReceiptSigning

/// libFuzzer's own mutator, which writes into `data` (capacity `maxSize`) and returns the new size.
@_silgen_name("LLVMFuzzerMutate")
func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

/// The structure-aware mutator: one of
/// - a JWS catalogue mutation (`JWSMutationCatalogue.all`), re-signed with the TEST-ONLY kit;
/// - a payload or header edit: the token's JSON changed by libFuzzer's mutator (or a claim set, removed or
///   repeated), then signed again with the TEST-ONLY EC key;
/// - libFuzzer's mutator on the whole input, also the fallback when the others cannot apply.
@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    if let kit = JWSVerifySetup.shared?.kit, size > 0 {
        let input = Array(UnsafeBufferPointer(start: data, count: size))
        var mutator = JWSVerifyMutator(kit: kit, random: SplitMix64(seed: UInt64(seed)))
        let roll = mutator.random.next() % 100
        var output: [UInt8]?
        if roll < 20 { output = mutator.applyCatalogue(input) }
        if output == nil, roll < 85 { output = mutator.edit(input) }
        if let output, !output.isEmpty, output.count <= maxSize {
            output.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                data.update(from: base, count: buffer.count)
            }
            return output.count
        }
    }
    return libFuzzerMutate(data, size, maxSize)
}

struct JWSVerifyMutator {
    let kit: MutationKit
    var random: SplitMix64

    mutating func below(_ bound: Int) -> Int { bound > 0 ? Int(random.next() % UInt64(bound)) : 0 }

    mutating func applyCatalogue(_ input: [UInt8]) -> [UInt8]? {
        let catalogue = JWSMutationCatalogue.all
        return try? catalogue[below(catalogue.count)].apply(to: input, kit: kit)
    }

    /// The token's payload (or header) edited and signed again.
    mutating func edit(_ input: [UInt8]) -> [UInt8]? {
        guard let context = try? JWSMutationContext.baseline(of: input, kit: kit) else { return nil }
        var payload = context.payload
        var header = context.header
        let claims = [
            "bundleId", "environment", "transactionId", "signedDate", "productId", "quantity", "data",
            "signedTransactionInfo", "alg", "x5c", "appAppleId", "expiresDate",
        ]
        let values = [
            #""com.example.rcpt.fuzz""#, "0", "1e400", "-1", "null", "true", #""""#, "[]", "{}",
            "9007199254740993", #""\u0000""#, #""Sandbox""#, #""Production""#, "4000000000000",
        ]
        switch below(6) {
        case 0: mutateBytes(&payload)
        case 1:
            payload = JWSMutationContext.setting(
                claims[below(claims.count)], to: values[below(values.count)], in: payload)
        case 2: payload = JWSMutationContext.removing(claims[below(claims.count)], from: payload)
        case 3:
            payload =
                (try? JWSMutationContext.duplicating(
                    claims[below(claims.count)], as: values[below(values.count)],
                    in: payload)) ?? payload
        case 4: mutateBytes(&header)
        default:
            header = JWSMutationContext.setting(
                claims[below(claims.count)], to: values[below(values.count)], in: header)
        }
        guard let token = try? context.signed(header: header, payload: payload) else { return nil }
        return Array(token.utf8)
    }

    mutating func mutateBytes(_ bytes: inout [UInt8]) {
        let size = bytes.count
        bytes += [UInt8](repeating: 0, count: 64)
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int in
            guard let base = buffer.baseAddress else { return size }
            return libFuzzerMutate(base, size, buffer.count)
        }
        bytes.removeLast(bytes.count - min(written, bytes.count))
    }
}

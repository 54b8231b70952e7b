import FuzzSigningSupport
import FuzzSupport
import ReceiptMutation
import ReceiptValidation

/// Input bytes → `ReceiptInspector.inspect` with the TEST-ONLY root of `Corpus/fuzz/keys/` as the only anchor, the
/// expected bundle id, app version and device, and a fixed "now": the whole `rcpt verify` path. Its custom mutator
/// (`VerifyMutator`) re-signs what it changes with the TEST-ONLY key, so most inputs pass the signature check and
/// reach the chain, content and record checks. Oracles in `VerifyOracles`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    guard let setup = VerifySetup.shared else { Fuzz.fail("verify", VerifySetup.problem) }
    let inspection = ReceiptInspector.inspect(bytes, options: setup.options)
    VerifyStatistics.count(inspection)
    VerifyOracles(input: bytes, setup: setup).check(inspection)
    blackHole(inspection.description)
    return 0
}

/// What the harness loads once per process: the kit (chain, foreign chain, device) and the inspection options.
struct VerifySetup: Sendable {
    let keys: String
    let kit: MutationKit
    let options: InspectionOptions

    static let shared: VerifySetup? = {
        VerifyStatistics.reportAtExit()
        return try? load()
    }()

    /// Why `shared` is nil.
    static var problem: String {
        do {
            _ = try load()
            return "no problem"
        } catch {
            return "cannot load the TEST-ONLY keys: \(error) (set \(FuzzKeys.environmentVariable) to Corpus/fuzz/keys)"
        }
    }

    static func load() throws -> VerifySetup {
        guard let keys = FuzzKeys.locate() else {
            throw SetupError(
                "no folder with root.pem in $\(FuzzKeys.environmentVariable), "
                    + "\(FuzzKeys.besideBinary)/ beside the binary or \(FuzzKeys.inRepository) above it")
        }
        let kit = try FuzzKeys.kit(in: keys)
        var options = InspectionOptions(anchors: try FuzzKeys.anchors(in: keys), now: VerifyExpectations.now)
        options.expectations = VerifyExpectations.expectations
        return VerifySetup(keys: keys, kit: kit, options: options)
    }
}

struct SetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

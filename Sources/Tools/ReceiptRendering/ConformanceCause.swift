import ReceiptConformance
import ReceiptSuite

/// Why a conformance failure matters, said to the validator's author: by the class of the result and the group or
/// layer of the catalogue entry.
extension ConformanceReport {
    /// The entries whose only difference from Apple's chain is a marker extension: a validator that pins the root
    /// and accepts them checks the chain but not Apple's certificate policy.
    static let markerEntries: Set<String> = [
        "leaf-marker-stripped", "intermediate-marker-stripped", "decoy-intermediate-with-marker",
        "leaf-marker-missing", "intermediate-marker-missing",
    ]

    /// Why a failure matters, from its class and the group of the entry (the catalogue's groups, a findings folder's
    /// disagreement classes); `byName` lets an entry whose name says more than its group speak for itself (a marker
    /// entry: the chain is checked, Apple's policy is not).
    package static func cause(_ result: ConformanceResult, byName: Bool = true) -> String {
        if byName, result.resultClass == .acceptedBad, result.concern == .security,
            markerEntries.contains(result.name)
        {
            return
                "your validator checks the chain to the trusted root but not Apple's marker extensions (1.2.840.113635.100.6.11.1 on the signing certificate, 1.2.840.113635.100.6.2.1 on the WWDR intermediate): any developer's certificate from Apple's WWDR CA then signs what it likes"
        }
        switch result.resultClass {
        case .crashed where result.attacker == .signer, .timedOut where result.attacker == .signer:
            return
                "only the signing key's holder can make this input (Apple never signs it), so no one else can send it; still, a validator should refuse what it cannot read, not \(result.resultClass == .crashed ? "crash" : "hang")"
        case .crashed: return "a crash on input anyone can send is a denial of service, and may be worse"
        case .timedOut: return "a hang on input anyone can send ties up the server that validates"
        case .errored:
            if case .unreachable = result.run.outcome {
                return
                    "the endpoint gave no verdict (unreachable, the connection dropped, or an answer that is neither 2xx, 4xx nor 5xx): its caller cannot tell rejected from broken"
            }
            return "an exit status outside --reject-codes gives no verdict: the caller cannot tell rejected from broken"
        case .couldNotRun: return "the command could not be started (exit 126 or 127): check its path and interpreter"
        case .baselineRejected:
            return "the validator's options are wrong (root, bundle id, version, device), so nothing else was judged"
        case .overStrict where result.attacker == .signer:
            return
                "a shape Apple never signs, which only the signing key's holder can make: refusing it costs nothing today, and rcpt reads it only to show what a lenient reader would"
        case .overStrict:
            return "rejecting what Apple issues locks out paying customers, and users turn such checks off"
        case .passed: return "as it should"
        case .acceptedBad where result.concern == .robustness:
            return
                "only the signing key's holder can make these (Apple never signs them), or they sit where no server reads: accepting them is no security failure, but a reader that parses the document again may read it otherwise"
        case .acceptedBad where result.concern == .policy:
            return
                "genuine documents your app's policy may refuse (another version, environment or time): accepted, they are served"
        case .acceptedBad:
            switch result.group {
            case "signature": return "your validator does not check the signature over the content"
            case "chain":
                return
                    "your validator does not check the certificate chain to the trusted root and Apple's certificate policy"
            case "structure":
                return "your validator's parser accepts containers that are not well formed, where parsers disagree"
            case "encoding": return "your validator accepts encodings Apple never signs"
            case "semantics":
                return "your validator does not bind the receipt to the app, version, device or environment"
            case "dates": return "your validator does not check the receipt's dates"
            case "in-app": return "your validator trusts in-app records it should question"
            case "jws": return Self.jwsCause(layer: result.layer)
            case "accepted-what-rcpt-rejects":
                return "your validator accepts inputs rcpt verify rejects, each for the finding code named"
            default: return "your validator accepts what it must reject"
            }
        }
    }

    /// What a JWS entry accepted though it must be rejected says about the validator, by the layer of its edit.
    static func jwsCause(layer: String?) -> String {
        switch layer {
        case "signature":
            return
                "your validator does not check the token's signature: ES256 over header and payload with the x5c leaf's key, nothing else"
        case "chain":
            return "your validator does not check the x5c chain to Apple's root under Apple's certificate policy"
        case "header":
            return
                "your validator accepts headers Apple never signs (another alg, crit, a key reference, an x5c it reads otherwise than Apple's libraries)"
        case "payload":
            return
                "your validator accepts payloads Apple never signs (claims of another type, twice, or dates that read no date)"
        case "binding":
            return "your validator does not bind the token to the app, its environment and App Store id, or its kind"
        case "nesting":
            return
                "your validator does not verify the tokens a notification carries, or that they agree with it and with each other"
        case "document":
            return
                "your validator reads the document around its tokens otherwise than it verifies them (a token nobody verified in another member, case or string; a token of another kind where a transaction belongs)"
        case "encoding":
            return "your validator accepts base64url or JSON encodings Apple never writes"
        default:
            return
                "your validator does not verify Apple's JWS as Apple's libraries do (algorithm, x5c chain, markers, bound claims)"
        }
    }
}

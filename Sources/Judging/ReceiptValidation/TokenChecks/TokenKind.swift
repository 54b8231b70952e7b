import ReceiptDiagnostics
import ReceiptJWS

/// Each position in Apple's documents holds one kind: a server verifies what it finds there as that kind, and
/// Apple's verifier refuses a token of another (a genuine notification in an API response's transactions).
struct TokenKind: TokenCheck {
    func check(_ judgement: inout TokenJudgement) {
        let held = judgement.held
        let claimed = JWSPayloadKind.claims(held.token.payload)
        guard let expected = JWSPayloadKind.expected(at: held.member), claimed != .unknown, claimed != expected else {
            return
        }
        judgement.findings.append(
            Finding(
                .jwsKindMismatch, at: held.token.offset,
                "\(held.path) holds a \(claimed.rawValue) where Apple's documents hold a \(expected.rawValue): a server reads it as one, and Apple's verifier refuses it"
            ))
    }
}

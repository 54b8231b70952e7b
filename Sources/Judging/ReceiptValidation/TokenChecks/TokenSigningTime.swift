import Foundation
import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptPurchases

/// When the chain is evaluated: at the token's signing claim unless `--at` says otherwise; a claim that is present
/// but unusable, missing, or in the future is said.
struct TokenSigningTime: TokenCheck {
    func check(_ judgement: inout TokenJudgement) {
        let time = Self.evaluationTime(
            judgement.token, binding: judgement.binding, options: judgement.options,
            at: judgement.payloadOffset)
        judgement.evaluatedAt = time.seconds
        judgement.timeSource = time.source
        judgement.signedAt = time.signed
        judgement.findings += time.findings
    }

    /// When the chain is evaluated, why, and what is wrong with the claim that says so. The claim is `signedDate`
    /// (`receiptCreationDate` for an app transaction); a present claim is read exactly or refused, never taken as
    /// absent. A notification without one is evaluated at the latest signedDate of the tokens it carries. `signed`
    /// is the signing time found (unix seconds), which a status time of `signed` means too.
    static func evaluationTime(
        _ token: JWSToken, binding: JWSBinding, options: InspectionOptions,
        at offset: (Int) -> Int
    )
        -> (seconds: Int64, source: VerificationSummary.TimeSource, signed: Int64?, findings: [Finding])
    {
        var findings: [Finding] = []
        let name = binding.timeClaim
        let claimOffset =
            token.payload.flatMap { payload in
                payload.member(name, of: payload.root).map { offset(payload.nodes[$0].start) }
            } ?? token.ranges[.payload]?.lowerBound
        var signed: Int64?
        switch token.claimDate(name) {
        case .none:
            break
        case .some(.failure(let problem)):
            findings.append(
                Finding(
                    .jwsDateUnusable, at: claimOffset,
                    "\(name) is present but \(problem.phrase): the token has no usable signing time, and none is assumed",
                    fields: [FindingField("path", name)]))
        case .some(.success(let date)):
            if date.isNegative || date.milliseconds == 0 {
                findings.append(
                    Finding(
                        .jwsDateUnusable, at: claimOffset,
                        "\(name) is \(date.milliseconds) ms: a signing time at or before 1970 is no signing time, and none is assumed",
                        fields: [FindingField("path", name)]))
            } else {
                signed = date.milliseconds
            }
        }
        // signedDate and, for an app transaction, receiptCreationDate must not be in the future.
        for claim in Set([name, "signedDate"]) {
            guard case .some(.success(let date)) = token.claimDate(claim),
                date.milliseconds / 1000 > options.clock + 300
            else { continue }
            findings.append(
                Finding(
                    .jwsSignedDateInFuture, at: claimOffset,
                    "\(claim) \(ReceiptDate.format(epochSeconds: date.milliseconds / 1000)) is after now (\(ReceiptDate.format(epochSeconds: options.clock)))"
                ))
        }
        // A notification without the claim is evaluated at the latest signedDate of the tokens it carries.
        let present = token.claimDate(name) != nil
        let carried =
            present || !(binding.kind == .notification || binding.kind == .unknown)
            ? nil
            : token.nested.compactMap({ held -> Int64? in
                guard case .some(.success(let date)) = held.token.claimDate("signedDate"), !date.isNegative,
                    date.milliseconds > 0
                else { return nil }
                return date.milliseconds
            }).max()
        let signedAt = (signed ?? carried).map { $0 / 1000 }
        if case .signed = options.time, signed == nil {
            if carried != nil {
                findings.append(
                    Finding(
                        .jwsSignedDateMissing, severity: .info, at: token.ranges[.payload]?.lowerBound,
                        "the payload has no \(name): the chain is evaluated at the signedDate of the JWS it carries"))
            } else if !present {
                findings.append(
                    Finding(
                        .jwsSignedDateMissing, at: token.ranges[.payload]?.lowerBound,
                        "the payload has no \(name): the chain is evaluated now"))
            }
        }
        let resolved = options.time.resolve(signed: signedAt, now: options.clock)
        return (
            resolved.seconds, VerificationSummary.TimeSource(options.time, fellBack: resolved.fellBack, kind: .jws),
            signedAt, findings
        )
    }
}

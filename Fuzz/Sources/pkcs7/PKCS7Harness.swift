import FuzzSupport
import ReceiptASN1
import ReceiptPKCS7

/// The SignedData container reader. Oracles: every range it reports lies inside the input, content segments are
/// in order and disjoint, error offsets are inside the input, and reading is deterministic.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    let result = SignedDataReader.read(bytes)
    let signed = result.signedData
    var check = RangeCheck(bytes: bytes)

    for finding in result.findings {
        if let offset = finding.offset { check.offset(offset, "finding \(finding.code)") }
    }
    if let error = result.error { check.offset(error.offset, "error \(error.code)") }
    if let truncation = result.truncation { check.offset(truncation.offset, "truncation \(truncation.code)") }
    if let offset = signed.offset { check.offset(offset, "SignedData offset") }
    for algorithm in signed.digestAlgorithms {
        check.offset(algorithm.offset, "digest algorithm")
        if let parameters = algorithm.parameters { check.range(parameters, "digest algorithm parameters") }
    }
    if let content = signed.encapsulatedContent {
        check.offset(content.offset, "EncapsulatedContentInfo")
        var previousEnd = 0
        for segment in content.segments {
            check.range(segment, "content segment")
            guard segment.lowerBound >= previousEnd else {
                Fuzz.fail(
                    "pkcs7", "content segment \(segment) overlaps or precedes the one ending at \(previousEnd)",
                    input: bytes)
            }
            previousEnd = segment.upperBound
        }
        if let octets = content.octetString { check.range(octets.encodingRange, "eContent OCTET STRING") }
        check.value &+= content.length &+ (content.contentOffset ?? 0)
    }
    for certificate in signed.certificates {
        check.range(certificate.encoding, "certificate \(certificate.index)")
        for range in [certificate.serialNumber, certificate.issuer, certificate.subject].compactMap({ $0 }) {
            guard range.lowerBound >= certificate.encoding.lowerBound,
                range.upperBound <= certificate.encoding.upperBound
            else {
                Fuzz.fail(
                    "pkcs7", "certificate field \(range) outside its certificate \(certificate.encoding)",
                    input: bytes)
            }
        }
    }
    for crl in signed.crls { check.range(crl, "CRL") }
    for signer in signed.signers {
        check.offset(signer.offset, "SignerInfo")
        check.range(signer.signatureString.encodingRange, "signature")
        for segment in signer.signatureSegments { check.range(segment, "signature segment") }
        if let attributes = signer.signedAttributes {
            check.range(attributes.encoding, "signed attributes")
            for attribute in attributes.attributes {
                for value in attribute.values { check.range(value, "signed attribute value") }
            }
        }
        for attribute in signer.unsignedAttributes ?? [] {
            for value in attribute.values { check.range(value, "unsigned attribute value") }
        }
    }
    if let trailing = signed.trailingBytes { check.range(trailing, "trailing bytes") }

    let again = SignedDataReader.read(bytes)
    guard again.signedData == signed, again.findings == result.findings, again.nodesRead == result.nodesRead else {
        Fuzz.fail("pkcs7", "two reads of the same bytes differ", input: bytes)
    }
    blackHole(check.value)
    return 0
}

/// Checks that offsets and ranges stay inside the input.
struct RangeCheck {
    let bytes: [UInt8]
    var value = 0

    mutating func offset(_ offset: Int, _ what: @autoclosure () -> String) {
        guard offset >= 0, offset <= bytes.count else {
            Fuzz.fail("pkcs7", "\(what()) offset \(offset) is outside the \(bytes.count)-byte input", input: bytes)
        }
        value &+= offset
    }

    mutating func range(_ range: Range<Int>, _ what: @autoclosure () -> String) {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else {
            Fuzz.fail("pkcs7", "\(what()) range \(range) is outside the \(bytes.count)-byte input", input: bytes)
        }
        value &+= range.count
    }
}

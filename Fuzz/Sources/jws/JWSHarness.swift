import FuzzJWSSupport
import FuzzSupport
import ReceiptJSON
import ReceiptJWS

/// Input bytes → `JWSInput.read`: the strict base64url decoder, the JSON reader (header, payload, a notification or
/// API response around the tokens) and the nested tokens, to their bounded depth. Oracles: every part, node and
/// nested offset lies inside what holds it; a node's subtree ends after it and within the document; nesting stays
/// within `JWSReader.maximumNesting`; a part decoded without anomalies re-encodes to the same characters; the paths
/// of a document are one per node.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    guard case .success(let input) = JWSInput.read(bytes) else { return 0 }
    if let json = input.json { JWSHarness.check(json, input: bytes) }
    var pending = input.tokens.map { ($0, bytes.count) }
    while let (held, containerSize) = pending.popLast() {
        let token = held.token
        guard held.offset >= 0, held.offset <= containerSize else {
            Fuzz.fail("jws", "a token at \(held.path) starts at \(held.offset), outside its container", input: bytes)
        }
        guard token.depth <= JWSReader.maximumNesting else {
            Fuzz.fail("jws", "a token nested \(token.depth) deep", input: bytes)
        }
        for part in JWSToken.Part.allCases {
            guard let range = token.ranges[part], range.lowerBound >= token.text.startIndex,
                range.upperBound <= token.text.endIndex
            else {
                Fuzz.fail("jws", "the \(part.rawValue) range lies outside the token", input: bytes)
            }
            let anomalous = token.findings.contains { $0.fields.contains(.init("part", part.rawValue)) }
            let decoded: [UInt8] =
                part == .header ? token.headerBytes : part == .payload ? token.payloadBytes : token.signature
            if !anomalous, Array(Base64URL.encode(decoded).utf8) != Array(token.text[range]) {
                Fuzz.fail("jws", "the \(part.rawValue) has no anomaly but does not re-encode to itself", input: bytes)
            }
        }
        for document in [token.header, token.payload].compactMap({ $0 }) { JWSHarness.check(document, input: bytes) }
        for finding in token.findings {
            if let offset = finding.offset, offset < token.text.startIndex || offset > token.text.endIndex {
                Fuzz.fail("jws", "finding \(finding.code) at \(offset), outside the token", input: bytes)
            }
            blackHole(finding.message)
        }
        pending += token.nested.map { ($0, token.payloadBytes.count) }
    }
    return 0
}

enum JWSHarness {
    static func check(_ document: JSONDocument, input: [UInt8]) {
        let count = document.bytes.count
        for (index, node) in document.nodes.enumerated() {
            guard node.start >= 0, node.start < node.end, node.end <= count, node.next > index,
                node.next <= document.nodes.count
            else {
                Fuzz.fail("jws", "JSON node \(index) is out of bounds: \(node)", input: input)
            }
            if let key = node.keyRange, key.lowerBound < 1 || key.upperBound > node.start {
                Fuzz.fail("jws", "JSON node \(index)'s name is not before it", input: input)
            }
            blackHole(document.key(index))
            blackHole(document.string(index))
        }
        guard document.paths().count == document.nodes.count else {
            Fuzz.fail("jws", "paths() does not give one path per node", input: input)
        }
    }
}

/// Edits of what a token means, its signature kept: the reader meets JSON it has never seen inside valid base64url.
@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    StructureMutation.mutate(data, size, maxSize, seed: seed, kit: nil)
}

@_cdecl("LLVMFuzzerCustomCrossOver")
public func customCrossOver(
    _ first: UnsafePointer<UInt8>, _ firstSize: Int, _ second: UnsafePointer<UInt8>, _ secondSize: Int,
    _ out: UnsafeMutablePointer<UInt8>, _ maxOutSize: Int, _ seed: UInt32
) -> Int {
    StructureMutation.crossover(first, firstSize, second, secondSize, out, maxOutSize, seed: seed, kit: nil)
}

import Foundation
import ReceiptHTTP
import ReceiptTestSupport
import Testing

/// Every `--target` failure comes with a curl command; what that command posts is, byte for byte, what rcpt posted:
/// a token wrapped by printf, a DER receipt's base64 with members holding quotes, percent signs and backslashes, a
/// suite's JSON body with a member added, a template, a raw file.
@Suite("curl reproductions post what rcpt posted")
struct CurlReproductionTests {
    /// What the command's body part writes: the printf before `| curl`, the file after `@`, or the quoted body.
    static func postedBody(_ command: String) throws -> [UInt8] {
        if let pipe = command.range(of: " | curl ") {
            let (status, output) = try CLI.process("/bin/sh", ["-c", String(command[..<pipe.lowerBound])])
            #expect(status == 0, "\(output)")
            return Array(output.utf8)
        }
        let after = try #require(command.range(of: "--data-binary ")).upperBound
        let rest = String(command[after...])
        if rest.hasPrefix("@") {
            let path = String(rest.dropFirst().prefix { $0 != " " })
            return Array(try Data(contentsOf: URL(fileURLWithPath: path.replacingOccurrences(of: "'", with: ""))))
        }
        // The quoted body, then the URL: let the shell unquote the first word.
        let (status, output) = try CLI.process("/bin/sh", ["-c", "set -- \(rest); printf %s \"$1\""])
        #expect(status == 0)
        return Array(output.utf8)
    }

    @Test func eachBodyShapeIsReproducedExactly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = folder.appendingPathComponent("it's a token.jws")
        try Data(Fixtures.bytes("Corpus/jws/gopay-notif-DID_RENEW-sandbox.jws")).write(to: token)
        let receipt = folder.appendingPathComponent("receipt.der")
        try Data(Fixtures.bytes("Corpus/receipts/kvitto-sandboxReceipt.receipt")).write(to: receipt)
        let body = folder.appendingPathComponent("body.json")
        try Data(#"{"receipt-data":"MIIx","exclude-old-transactions":true}"#.utf8).write(to: body)
        let tricky = BodyMember(name: "password", json: #""50%d'x\"\\ \u00e9""#)
        let url = try #require(URL(string: "http://127.0.0.1:9/verify?x='1'"))
        let cases: [(RequestBody, URL)] = [
            (.signedPayload, token), (.receiptData(extra: [tricky]), receipt), (.receiptData(extra: [tricky]), body),
            (.raw, receipt), (.template(#"{"t":"{{document}}","pct":"100%"}"#), token),
        ]
        for (shape, file) in cases {
            let target = HTTPTarget(url: url, body: shape, timeout: 1)
            let command = target.reproduction(of: file.path)
            let sent = shape.bytes(for: Array(try Data(contentsOf: file)))
            #expect(try Self.postedBody(command) == sent, "\(shape): \(command.prefix(300))")
            #expect(command.hasSuffix(#"'http://127.0.0.1:9/verify?x='\''1'\'''"#), "\(command.suffix(80))")
            // rcpt names itself by the version --version prints, unless the user names another agent.
            #expect(command.contains("-H 'User-Agent: rcpt/0."), "\(command.prefix(200))")
        }
        let named = HTTPTarget(
            url: url, headers: [HTTPTarget.Header(name: "user-agent", value: "backend-probe")], body: .raw, timeout: 1)
        let command = named.reproduction(of: receipt.path)
        #expect(command.contains("'user-agent: backend-probe'") && !command.contains("rcpt/0."), "\(command)")
        // The member was added to the suite's own JSON body, which keeps what it had.
        let merged = RequestBody.receiptData(extra: [tricky]).bytes(for: Array(try Data(contentsOf: body)))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(merged)) as? [String: Any])
        #expect(object["password"] as? String == #"50%d'x"\ é"#)
        #expect(object["exclude-old-transactions"] as? Bool == true)
    }
}

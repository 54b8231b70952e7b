import Foundation
import ReceiptTestSupport
import Testing

/// `rcpt report` without a browser: the page is self-contained, its policy names exactly its own style and script,
/// input travels only as escaped data, the structure it embeds places every attribute and claim where `dump` does,
/// and the exit codes. Tests/Browser/report_test.py drives the same pages in Chromium (scripts/browser-test.sh).
@Suite("rcpt report")
struct ReportCLITests {
    /// The page of `file`, written with -o.
    static func page(_ file: String, _ extra: [String] = []) throws -> (html: String, status: Int32) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-report-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run(["report", file, "-o", out.path] + extra)
        let html = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        #expect(!html.isEmpty, "no page for \(file): \(result)")
        return (html, result.status)
    }

    /// The text between `open` and the next `close` after it, for each occurrence.
    static func elements(_ html: String, _ open: String, _ close: String) -> [String] {
        var found: [String] = []
        var rest = html[...]
        while let start = rest.range(of: open) {
            guard let tagEnd = rest[start.upperBound...].range(of: ">"),
                let end = rest[tagEnd.upperBound...].range(of: close)
            else { break }
            found.append(String(rest[tagEnd.upperBound..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return found
    }

    /// The report's data, parsed.
    static func data(_ html: String) throws -> [String: Any] {
        let text = try #require(elements(html, "<script type=\"application/json\" id=\"rcpt-data\"", "</script>").first)
        return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The tree names the container's parts, the signature included, whether it is written primitive or in BER's
    /// constructed form (the label was looked for at the content's first byte, where no element starts).
    @Test(arguments: [
        "Corpus/receipts/tpinappreceipt-production.receipt", "Corpus/receipts-altered/signature-constructed.receipt",
    ])
    func theTreeNamesTheSignature(_ file: String) throws {
        let (html, status) = try Self.page(file)
        #expect(status == 0)
        let labels = try Self.data(html)["labels"] as? [String] ?? []
        for label in ["SignerInfo [0]", "signature", "eContent: the receipt payload"] {
            #expect(labels.contains(label), "\(file): \(label) not in \(labels.prefix(40))")
        }
    }

    /// The timeline draws what the signed document states: Apple's unsigned decoding beside it (a verifyReceipt
    /// response's `receipt`, anyone's to edit) once drew a forged lifetime purchase as the receipt's own.
    @Test func theTimelineDrawsOnlySignedStatements() throws {
        let receiptFile = "Corpus/receipts/kvitto-sandboxReceipt.receipt"
        let decoded = try CLI.run(["verify", "--format", "verifyreceipt", receiptFile])
        var body = try #require(try JSONSerialization.jsonObject(with: decoded.stdoutBytes) as? [String: Any])
        var receipt = try #require(body["receipt"] as? [String: Any])
        var inApp = (receipt["in_app"] as? [[String: Any]]) ?? []
        inApp.append([
            "quantity": "1", "product_id": "com.example.forged.lifetime", "transaction_id": "777",
            "original_transaction_id": "777", "purchase_date_ms": "1500000000000",
            "purchase_date": "2017-07-14 02:40:00 Etc/GMT",
        ])
        receipt["in_app"] = inApp
        body["receipt"] = receipt
        body["latest_receipt"] = Data(Fixtures.bytes(receiptFile)).base64EncodedString()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-unsigned-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONSerialization.data(withJSONObject: body).write(to: file)
        let events = (try Self.data(try Self.page(file.path).html)["events"] as? [[String: Any]]) ?? []
        #expect(!events.isEmpty)
        #expect(!events.contains { $0["transaction"] as? String == "777" }, "\(events.count) events")
    }

    /// A space's nodes as (start, end, label), decoded as the page decodes them.
    static func nodes(_ space: [String: Any], labels: [String]) throws -> [(start: Int, end: Int, label: String)] {
        let packed = [UInt8](try #require(Data(base64Encoded: space["nodes"] as? String ?? "")))
        let count = space["nodeCount"] as? Int ?? 0
        var at = 0
        func varint() -> Int {
            var value = 0
            var shift = 0
            while at < packed.count {
                let byte = Int(packed[at])
                at += 1
                value |= (byte & 0x7f) << shift
                shift += 7
                if byte & 0x80 == 0 { break }
            }
            return value
        }
        var out: [(Int, Int, String)] = []
        var stack: [(left: Int, cursor: Int)] = [(Int.max, 0)]
        for _ in 0..<count {
            let kids = varint()
            let zig = varint()
            let header = varint()
            let length = varint()
            let label = varint()
            while stack.count > 1 && stack[stack.count - 1].left == 0 { stack.removeLast() }
            let gap = zig % 2 == 0 ? zig / 2 : -(zig + 1) / 2
            let start = stack[stack.count - 1].cursor + gap
            out.append((start, start + length, label < labels.count ? labels[label] : "?"))
            stack[stack.count - 1].left -= 1
            stack[stack.count - 1].cursor = start + length
            if kids > 0 { stack.append((kids, start + header)) }
        }
        return out
    }

    static func dump(_ file: String) throws -> [String: Any] {
        let result = try CLI.run(["dump", "--format", "json", file])
        return try #require(JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
    }

    static func sha256Base64(_ text: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-hash-\(UUID().uuidString)")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "dgst", "-sha256", "-binary", file.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let digest = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return digest.base64EncodedString()
    }

    @Test(arguments: [
        "Corpus/receipts/kvitto-sandboxReceipt.receipt", "Corpus/jws/gopay-notif-DID_RENEW-sandbox.jws",
        "Corpus/jws/imdhemy-notif-TEST-sandbox.json",
    ])
    func thePageIsSelfContainedAndItsPolicyAllowsOnlyItsOwnCode(file: String) throws {
        let (html, status) = try Self.page(file)
        #expect(status == 0)
        let policy = try #require(
            html.range(of: "content=\"default-src 'none'; ").map {
                String(html[$0.lowerBound...].prefix { $0 != ">" })
            })
        let style = try #require(Self.elements(html, "<style", "</style>").first)
        let scripts = Self.elements(html, "<script", "</script>")
        #expect(scripts.count == 2, "the data element and the page's own script, nothing else")
        let script = try #require(scripts.last)
        #expect(policy.contains("script-src 'sha256-\(try Self.sha256Base64(script))'"))
        #expect(policy.contains("style-src 'sha256-\(try Self.sha256Base64(style))'"))
        #expect(policy.contains("connect-src") == false && policy.contains("default-src 'none'"))
        // Nothing outside the data is fetched or linked, and the data cannot close its element.
        let data = try #require(scripts.first)
        #expect(!data.contains("<") && !data.contains(">") && !data.contains("&"))
        // The SVG namespace is a name, not an address anything is fetched from.
        let outside = html.replacingOccurrences(of: data, with: "")
            .replacingOccurrences(of: "'http://www.w3.org/2000/svg'", with: "")
        for reference in [
            "src=", "href=", "http:", "https:", "@import", "url(", "innerHTML", "outerHTML",
            "insertAdjacentHTML", "document.write", "eval(", "new Function",
        ] {
            #expect(!outside.contains(reference), "the page itself holds \(reference)")
        }
    }

    @Test func everyAttributeIsANodeWhereDumpPlacesIt() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("Corpus/receipts").path).sorted()
        where name.hasSuffix(".receipt") {
            let file = "Corpus/receipts/" + name
            let expected = try Self.dump(file)
            let data = try Self.data(try Self.page(file).html)
            let labels = data["labels"] as? [String] ?? []
            let space = try #require((data["spaces"] as? [[String: Any]])?.first)
            let nodes = try Self.nodes(space, labels: labels)
            var ranges: [Int: [(Int, String)]] = [:]
            for node in nodes { ranges[node.start, default: []].append((node.end, node.label)) }
            var attributes: [[String: Any]] = []
            for attribute in expected["attributes"] as? [[String: Any]] ?? [] {
                attributes.append(attribute)
                attributes += attribute["records"] as? [[String: Any]] ?? []
            }
            #expect(!attributes.isEmpty, "\(name) has attributes")
            for attribute in attributes {
                let offset = attribute["offset"] as? Int ?? -1
                let length = attribute["length"] as? Int ?? -1
                let attributeName = attribute["name"] as? String ?? "?"
                let found =
                    ranges[offset]?.contains { $0.0 == offset + length && $0.1.hasPrefix(attributeName) } ?? false
                #expect(found, "\(name): \(attributeName) at \(offset)+\(length) is not a node")
                let valueOffset = attribute["valueOffset"] as? Int ?? -1
                #expect(
                    ranges[valueOffset] != nil, "\(name): the value of \(attributeName) at \(valueOffset) is not a node"
                )
            }
            // Every node lies inside the bytes.
            let size = space["size"] as? Int ?? 0
            #expect(nodes.allSatisfy { 0 <= $0.start && $0.start <= $0.end && $0.end <= size })
        }
    }

    @Test func everyClaimIsANodeInItsTokensDecodedPayload() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("Corpus/jws").path).sorted()
        where name.hasSuffix(".jws") || name.hasSuffix(".json") {
            let file = "Corpus/jws/" + name
            let expected = try Self.dump(file)
            let data = try Self.data(try Self.page(file).html)
            let labels = data["labels"] as? [String] ?? []
            let spaces = data["spaces"] as? [[String: Any]] ?? []
            let places = data["tokens"] as? [[String: Any]] ?? []
            var tokens: [[String: Any]] = []
            var pending = Array((expected["tokens"] as? [[String: Any]] ?? []).reversed())
            while let token = pending.popLast() {
                tokens.append(token)
                pending += (token["nested"] as? [[String: Any]] ?? []).reversed()
            }
            #expect(places.map { $0["path"] as? String } == tokens.map { $0["path"] as? String }, "\(name)")
            for (token, place) in zip(tokens, places) {
                let payloadSpace = try #require(place["payloadSpace"] as? Int)
                let starts = Set(try Self.nodes(spaces[payloadSpace], labels: labels).map(\.start))
                let claims = (token["payload"] as? [String: Any])?["claims"] as? [[String: Any]] ?? []
                #expect(!claims.isEmpty)
                for claim in claims {
                    let offset = claim["offset"] as? Int ?? -1
                    #expect(
                        starts.contains(offset), "\(name): claim \(claim["path"] ?? "?") at \(offset) is not a node")
                }
            }
        }
    }

    @Test func hostileTextTravelsAsEscapedDataOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let hostile = "</script><script>alert(1)</script></style>\u{202E}\u{1B}[31m<img src=x onerror=alert(2)>"
        let claims: [String: Any] = [
            "transactionId": hostile, "originalTransactionId": "1", "bundleId": hostile,
            "productId": "javascript:alert(3)", "purchaseDate": 1_700_000_000_000,
            "signedDate": 1_700_000_000_000, "type": hostile, "environment": "Sandbox",
            hostile: hostile,
        ]
        let spec = directory.appendingPathComponent("claims.json")
        try JSONSerialization.data(withJSONObject: claims).write(to: spec)
        // The file's own name is hostile too: it is the page's title.
        let token = directory.appendingPathComponent("a<b>\u{202E}.jws")
        let built = try CLI.run(["build", "--jws", spec.path, "--ca", "Corpus/fuzz/keys-jws", "-o", token.path])
        #expect(built.status == 0, "\(built)")
        let (html, _) = try Self.page(token.path)
        #expect(html.components(separatedBy: "<script").count - 1 == 2)
        #expect(html.components(separatedBy: "</style").count - 1 == 1)
        #expect(!html.contains("<img"))
        #expect(!html.contains("alert(1)</script>"))
        let title = try #require(Self.elements(html, "<title", "</title>").first)
        #expect(title.contains("a&lt;b&gt;⟨U+202E⟩.jws"), "\(title)")
        // The data holds the text exactly, for the page to set as text.
        let data = try Self.data(html)
        let labels = data["labels"] as? [String] ?? []
        #expect(labels.contains { $0.contains("<img src=x onerror=alert(2)>") && $0.contains("\u{202E}") })
    }

    @Test func exitCodesAndWhereThePageGoes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("empty.receipt")
        #expect(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        // Unreadable input: exit 2, and the page still shows the error.
        let (page, status) = try Self.page(empty.path)
        #expect(status == 2)
        let data = try Self.data(page)
        let readError = try #require((data["verdict"] as? [String: Any])?["readError"] as? [String: Any])
        let code = try #require(readError["code"] as? String)
        // The error is the first finding listed, and standard error says why.
        #expect(((data["findings"] as? [[String: Any]])?.first)?["code"] as? String == code)
        let unreadable = try CLI.run(["report", empty.path, "-o", directory.appendingPathComponent("e.html").path])
        #expect(unreadable.status == 2 && unreadable.stderr.contains(code), "\(unreadable)")
        // -o never replaces the input, and a page that cannot be written says why.
        let copy = directory.appendingPathComponent("copy.receipt")
        try FileManager.default.copyItem(at: Fixtures.url("Corpus/receipts/kvitto-receipt.receipt"), to: copy)
        let overwrite = try CLI.run(["report", copy.path, "-o", copy.path])
        #expect(overwrite.status == 2 && overwrite.stderr.contains("overwrite"))
        #expect(
            try Data(contentsOf: copy) == (try Data(contentsOf: Fixtures.url("Corpus/receipts/kvitto-receipt.receipt")))
        )
        let intoDirectory = try CLI.run(["report", copy.path, "-o", directory.path])
        #expect(intoDirectory.status == 2 && intoDirectory.stderr.contains("cannot write"))
        // No -o: standard output (not a terminal here).
        let piped = try CLI.run(["report", "Corpus/receipts/kvitto-sandboxReceipt.receipt"])
        #expect(piped.status == 0 && piped.stdout.hasPrefix("<!DOCTYPE html>"))
        #expect(try CLI.run(["report", "no-such-file"]).status == 2)
        let shaping = try CLI.run(["report", "--compact", "Corpus/receipts/kvitto-sandboxReceipt.receipt"])
        #expect(shaping.status == 2 && shaping.stderr.contains("--compact") && shaping.stdout.isEmpty)
        // --format html: dump and verify write the same page; verify's exit code is its verdict.
        let dumped = try CLI.run(["dump", "--format", "html", "Corpus/receipts/kvitto-sandboxReceipt.receipt"])
        #expect(dumped.status == 0 && dumped.stdout.hasPrefix("<!DOCTYPE html>"))
        let verified = try CLI.run([
            "verify", "--format", "html", "--bundle-id", "com.example.other",
            "Corpus/receipts/kvitto-sandboxReceipt.receipt",
        ])
        #expect(verified.status == 1 && verified.stdout.contains("bundle-id-mismatch"))
        #expect(!verified.stdout.contains("not computed"), "the page shows the input's SHA-256")
        let several = try CLI.run([
            "dump", "--format", "html", "Corpus/receipts/kvitto-sandboxReceipt.receipt",
            "Corpus/receipts/kvitto-receipt.receipt",
        ])
        #expect(several.status == 2 && several.stderr.contains("one input"))
    }

    /// The README's budget: a page is at most 64 KiB (its own style and script) plus 3 times its input (the bytes
    /// once in base64, about six bytes per node).
    @Test func aTypicalReportIsSmall() throws {
        for folder in ["Corpus/receipts", "Corpus/jws"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: Fixtures.url(folder).path).sorted()
            where [".receipt", ".jws", ".json"].contains(where: name.hasSuffix) {
                let file = folder + "/" + name
                let size = try #require(
                    try FileManager.default.attributesOfItem(atPath: Fixtures.url(file).path)[.size] as? Int)
                let (html, _) = try Self.page(file)
                #expect(Double(html.utf8.count) <= 3 * Double(size) + 65_536, "\(name): \(html.utf8.count) bytes")
            }
        }
    }
}

import Foundation
import ReceiptTestSupport

/// rcpt's JSON outputs checked against their schemas (`docs/schemas/`, draft 2020-12) by
/// `Tests/Schemas/check_outputs.py` with PyPI's jsonschema (installed by scripts/bootstrap.sh): each document names
/// its schema in its `schema` member; one with none, or an unknown one, is a violation too.
enum OutputSchemas {
    /// The checker's complaints about `outputs` (JSON documents or JSON lines), one line each; empty when every
    /// document is valid.
    static func violations(_ outputs: [Data]) throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-schema-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String] = []
        for (index, output) in outputs.enumerated() {
            let file = directory.appendingPathComponent("output-\(index).json")
            try output.write(to: file)
            files.append(file.path)
        }
        return try violations(files: files)
    }

    /// The checker's complaints about the JSON files at `files`.
    static func violations(files: [String]) throws -> [String] {
        let (status, text) = try CLI.process(
            "/usr/bin/env",
            ["python3", Fixtures.url("Tests/Schemas/check_outputs.py").path, Fixtures.url("docs/schemas").path] + files)
        if status == 0 { return [] }
        let lines = text.split(separator: "\n").map(String.init)
        return lines.isEmpty ? ["check_outputs.py exited \(status)"] : lines
    }
}

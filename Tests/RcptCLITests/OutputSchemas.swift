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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", Fixtures.url("Tests/Schemas/check_outputs.py").path, Fixtures.url("docs/schemas").path] + files
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = text.split(separator: "\n").map(String.init)
        if process.terminationStatus == 0 { return [] }
        return lines.isEmpty ? ["check_outputs.py exited \(process.terminationStatus)"] : lines
    }
}

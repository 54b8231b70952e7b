import Foundation
import ReceiptASN1
import ReceiptCrypto
import ReceiptModel
import ReceiptPKCS7
import ReceiptSigning

/// Writes the fuzz seeds (`Corpus/fuzz/<harness>/`) and dictionaries (`Corpus/fuzz/<harness>.dict`) from the
/// project's own builders, field table and OID list, and the real receipts in `Corpus/receipts/`. Deterministic:
/// the same tree gives the same files, byte for byte (signing uses the committed TEST-ONLY key in
/// `Corpus/fuzz/keys/`; RSA PKCS#1 v1.5 signatures are deterministic).
///
///     fuzz-corpus ROOT            rewrite seeds and dictionaries under ROOT/Corpus/fuzz
///     fuzz-corpus ROOT --new-keys generate the TEST-ONLY key and chain first (once; they are committed)
///     fuzz-corpus ROOT --new-foreign-keys  generate only the foreign chain in keys/foreign/ (once; committed)
///     fuzz-corpus ROOT --out DIR  write to DIR instead (used by `scripts/fuzz-corpus.sh --check`)
@main
struct FuzzCorpus {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let root = arguments.first else {
            let usage = "usage: fuzz-corpus ROOT [--new-keys|--new-foreign-keys] [--out DIR]\n"
            FileHandle.standardError.write(Data(usage.utf8))
            exit(2)
        }
        arguments.removeFirst()
        var output = root + "/Corpus/fuzz"
        var newKeys = false
        var newForeignKeys = false
        while let argument = arguments.first {
            arguments.removeFirst()
            switch argument {
            case "--new-keys": newKeys = true
            case "--new-foreign-keys": newForeignKeys = true
            case "--out":
                guard let directory = arguments.first else { fail("--out needs a directory") }
                arguments.removeFirst()
                output = directory
            default: fail("unknown argument \(argument)")
            }
        }
        do {
            let keys = root + "/Corpus/fuzz/keys"
            if newKeys { try SeedSources.writeKeys(to: keys) }
            if newForeignKeys && !newKeys { try SeedSources.writeForeignKeys(to: keys) }
            let sources = try SeedSources(root: root, keys: keys)
            let seeds = Seeds(sources: sources)
            for (harness, files) in seeds.all() {
                try write(files, to: output + "/" + harness)
            }
            for (harness, dictionary) in Dictionaries.all() {
                try Data(dictionary.rendered(harness: harness).utf8)
                    .write(to: URL(fileURLWithPath: output + "/" + harness + ".dict"))
                try Data(Harnesses.options(harness).utf8).write(
                    to: URL(fileURLWithPath: output + "/" + harness + ".options"))
            }
            print("fuzz-corpus: wrote seeds and dictionaries to \(output)")
        } catch {
            fail("\(error)")
        }
    }

    /// Replaces the seed files of one harness folder with `files` (other files in it are removed).
    static func write(_ files: [(name: String, bytes: [UInt8])], to directory: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for existing in try manager.contentsOfDirectory(atPath: directory) {
            try manager.removeItem(atPath: directory + "/" + existing)
        }
        var names = Set<String>()
        for file in files {
            guard names.insert(file.name).inserted else { fail("duplicate seed name \(file.name) in \(directory)") }
            try Data(file.bytes).write(to: URL(fileURLWithPath: directory + "/" + file.name))
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("fuzz-corpus: \(message)\n".utf8))
        exit(1)
    }
}

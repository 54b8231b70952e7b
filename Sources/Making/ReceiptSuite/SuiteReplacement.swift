import Foundation

extension Manifest {
    /// Removes what the suite in `directory` wrote, before `--force` writes another there: the files its manifest
    /// names (plain names in the directory, nothing else), `report.json` and the manifest itself. A file the user put
    /// there stays. Without it, a replaced suite kept the earlier run's findings beside the new manifest, and a CI
    /// artifact showed findings no run had made (a CI user's trial). A directory whose manifest does not read is left
    /// as it is.
    package static func removePrevious(in directory: String) {
        guard FileManager.default.fileExists(atPath: directory + "/manifest.json"),
            let previous = try? read(in: directory)
        else { return }
        let names = previous.mutations.map(\.file) + ["report.json", "manifest.json"]
        for name in names where !name.isEmpty && !name.contains("/") && name != "." && name != ".." {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }
}

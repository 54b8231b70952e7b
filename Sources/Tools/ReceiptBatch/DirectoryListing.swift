import Foundation

/// The entries of a directory, with what the directory itself says of each one's type (`d_type`): a regular file
/// named so needs no stat(2) of its own, which in a scan of thousands of small documents is a system call in three.
/// A link or an entry of unknown type says nothing (nil): the caller stats it, following links.
enum DirectoryListing {
    struct Entry {
        var name: String
        /// True for a regular file, false for anything else that is not a link; nil when only stat(2) can say.
        var isRegular: Bool?
    }

    /// The entries of `path` but `.` and `..`, in no particular order; nil when it cannot be read.
    static func entries(_ path: String) -> [Entry]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            guard name != ".", name != ".." else { continue }
            let type = Int(entry.pointee.d_type)
            let isRegular: Bool? =
                type == Int(DT_REG) ? true : (type == Int(DT_LNK) || type == Int(DT_UNKNOWN)) ? nil : false
            entries.append(Entry(name: name, isRegular: isRegular))
        }
        return entries
    }
}

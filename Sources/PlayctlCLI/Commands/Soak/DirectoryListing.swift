#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Directory contents with `opendir`/`readdir`.
package enum DirectoryListing {
    /// The names in a directory, without `.` and `..`; nil when it cannot be opened.
    package static func names(in path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

import Foundation

/// Fresh scratch directories for tests, under the system's temporary directory.
public enum TemporaryDirectory {
    /// Creates an empty directory named `<prefix>-<UUID>`; the caller removes it with `remove(_:)`.
    /// - Throws: Foundation's error when the directory cannot be created.
    public static func make(prefix: String = "playctl-tests") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Removes the directory and everything in it (unreadable files included: removing needs only the directory's
    /// permissions). Errors are ignored: what is left behind is in the temporary directory.
    public static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }
}

import Foundation

/// The playctl repository this module was built from: the checkout that holds `Package.swift`, `Media/` and `Fuzz/`.
///
/// Found from this source file's path at build time, so it works from any working directory, for the project's
/// tests and for a package that depends on this one (its checkout under `.build/checkouts` holds the same files).
public enum Repository {
    /// The repository's root directory (this file is `Sources/PlaybackTesting/Fixtures/Repository.swift` in it).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The file or directory at `relativePath` from the root (`"Fuzz/corpus/media"`).
    public static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// The path of the file or directory at `relativePath` from the root.
    public static func path(_ relativePath: String) -> String {
        url(relativePath).path
    }
}

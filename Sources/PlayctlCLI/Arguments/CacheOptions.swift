import CommandLineKit

/// `--cache-dir DIR [--cache-size BYTES]`: where the bytes of http(s) media are kept. Without a directory, in
/// memory only (32 MB), for this run; with one, also on disk, within the size, for later runs too.
struct CacheOptions: Sendable, Equatable {
    /// The disk tier's folder, or nil for memory only.
    let directory: String?
    /// The disk tier's bound in bytes.
    let size: Int

    /// 512 MB.
    static let defaultSize = 512 << 20

    init(directory: String? = nil, size: Int = CacheOptions.defaultSize) {
        self.directory = directory
        self.size = size
    }

    /// Reads `--cache-dir` and `--cache-size` as `directory` and `size` declare them.
    /// - Throws: `UsageError` for a size below 1 MB.
    init(_ arguments: ParsedArguments, directory: Option<String>, size: Option<Int>) throws(UsageError) {
        self.directory = arguments[directory]
        let bytes = try arguments[size] ?? Self.defaultSize
        guard bytes >= 1 << 20 else {
            throw arguments.invalidValue(size, value: arguments.text(of: size) ?? "", expected: "1048576 bytes or more")
        }
        self.size = bytes
    }
}

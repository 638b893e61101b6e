import CommandLineKit

/// `--cache-dir DIR [--cache-size BYTES]`: where the bytes of http(s) media are kept. Without a directory, in
/// memory only (32 MB), for this run; with one, also on disk, within the size, for later runs too. A group: the
/// commands that read media hold one (`var cache = CacheOptions()`), and its options join theirs.
struct CacheOptions: ParsableArguments {
    /// 512 MB.
    static let defaultSize = 512 << 20

    /// The disk tier's folder, or nil for memory only.
    @Option(
        name: "cache-dir", placeholder: "DIR",
        help: "Keep the bytes of http(s) media in DIR, for later runs (default: memory only, 32 MB).")
    var directory: String?

    /// The disk tier's bound in bytes.
    @Option(
        name: "cache-size", placeholder: "BYTES",
        help: "Bound of the --cache-dir cache in bytes (default 536870912: 512 MB).",
        check: .atLeast(1 << 20, "1048576 bytes or more"))
    var size: Int = CacheOptions.defaultSize
}

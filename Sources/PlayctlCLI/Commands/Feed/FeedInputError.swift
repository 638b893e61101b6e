/// Why `playctl feed` cannot use its manifest or its script. Every case names the file; `PlayctlMain` prints the
/// description as `playctl: error: <description>` and exits 1.
enum FeedInputError: Error, Equatable, CustomStringConvertible {
    /// The file or folder cannot be read: `reason` is the system's (`No such file or directory`).
    case unreadable(file: String, reason: String)
    /// The text is not JSON: the parser's reason, and where (1-based line and column, in bytes).
    case notJSON(file: String, reason: String, line: Int, column: Int)
    /// JSON, but not what the file should hold at `path` (`entries[2].kind`; empty for the whole document).
    case invalid(file: String, path: String, reason: String)
    /// Nothing to play or no step to take: a manifest without entries, a folder without media, a script without
    /// steps.
    case empty(file: String, reason: String)

    /// The file the error is about.
    var file: String {
        switch self {
        case .unreadable(let file, _), .notJSON(let file, _, _, _), .invalid(let file, _, _), .empty(let file, _):
            return file
        }
    }

    /// `Media/feed.json: entries[2].kind: unknown kind 'audio' (expected video or image)`.
    var description: String {
        switch self {
        case .unreadable(let file, let reason): return "\(file): cannot read: \(reason)"
        case .notJSON(let file, let reason, let line, let column):
            return "\(file): not JSON: \(reason) at line \(line), column \(column)"
        case .invalid(let file, let path, let reason): return "\(file): " + (path.isEmpty ? "" : path + ": ") + reason
        case .empty(let file, let reason): return "\(file): \(reason)"
        }
    }
}

extension CommandFailure {
    /// A manifest or script that cannot be used, worded as the error says.
    init(_ error: FeedInputError) {
        self = .other(error.description)
    }
}

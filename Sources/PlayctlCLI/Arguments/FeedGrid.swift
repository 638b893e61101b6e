import CommandLineKit

/// `--grid CxR`: the feed shows C columns and R rows of items at once (1 to 3 each), every visible video playing,
/// muted but for the first visible one (the Feed module's `FeedLayout.grid`).
struct FeedGrid: Equatable, ArgumentValue {
    let columns: Int
    let rows: Int

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
            (1...3).contains(columns), (1...3).contains(rows)
        else { return nil }
        self.columns = columns
        self.rows = rows
    }

    static let expectedArgument = "COLUMNSxROWS, each 1 to 3 (2x2)"
}

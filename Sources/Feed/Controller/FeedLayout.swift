/// How many items of a feed are on screen at once.
///
/// `.single` (the default) is the short-video feed: one item fills the screen, plays with sound, and a swipe moves
/// to the next. `.grid(columns:rows:)` shows `columns x rows` items at once (a grid or a carousel: `.grid(columns:
/// 3, rows: 1)`): each visible video plays in a pooled player of its own, muted but for one, the focused item
/// (``FeedController/focus(index:)``; the first visible by default), and a scroll moves the visible window by rows.
public enum FeedLayout: Sendable, Hashable, CustomStringConvertible {
    case single
    case grid(columns: Int, rows: Int)

    /// The most columns, and rows, a grid has: a 3x3 grid is nine players decoding at once.
    public static let maximumSide = 3

    /// Items on a row (1 for `.single`), clamped to 1 ... ``maximumSide``.
    public var columns: Int {
        switch self {
        case .single: return 1
        case .grid(let columns, _): return min(max(columns, 1), Self.maximumSide)
        }
    }

    /// Rows on screen (1 for `.single`), clamped to 1 ... ``maximumSide``.
    public var rows: Int {
        switch self {
        case .single: return 1
        case .grid(_, let rows): return min(max(rows, 1), Self.maximumSide)
        }
    }

    /// Items on screen at once.
    public var visibleCount: Int { columns * rows }

    /// Whether several items are on screen (a grid, even of one cell, mutes all but the focused one).
    public var isGrid: Bool { self != .single }

    /// The first item of the row holding `index` (the row's start; `index` itself for `.single`).
    public func rowStart(of index: Int) -> Int {
        index - ((index % columns) + columns) % columns
    }

    /// The players a feed of this layout needs at least: the visible items and the next row prepared (at most
    /// 12, a 3x3 grid's).
    public var playersNeeded: Int { visibleCount + columns }

    /// `single`, or `COLUMNSxROWS`.
    public var description: String {
        isGrid ? "\(columns)x\(rows)" : "single"
    }
}

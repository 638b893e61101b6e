/// A grid's sound (``FeedLayout/grid(columns:rows:)``): which visible item is heard.
extension FeedController {
    /// The user tapped visible item `index` of a grid: its player has the sound from now on, the one that had it
    /// is muted (`feed.audible`). Nothing happens for an item not on screen, or with ``FeedLayout/single`` (the item
    /// on screen always has the sound). A scroll that leaves the focused item on screen keeps it; one that takes
    /// it away gives the sound to the first visible item.
    public func focus(index: Int) {
        handle(.focus(index: index))
    }

    /// In a grid, the visible item whose player has the sound (nil before the first scroll, and with
    /// ``FeedLayout/single``).
    public var audibleIndex: Int? { state.withLock { $0.audible } }
}

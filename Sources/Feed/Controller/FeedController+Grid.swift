import Playback

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

    /// Under a manual clock, a grid's players report at once (several play at the same virtual time), each on its
    /// own callback executor: their events are queued as they come and handled here, after every player caught up
    /// with the advance, in the order the players made them (their sequence numbers), so that a scenario gives the
    /// same trace on every run.
    func handleGridPlayerEvents() async {
        guard configuration.layout.isGrid else { return }
        for player in pool.players { await player.callbacksDelivered() }
        let events = pendingPlayerEvents.withLock { pending in
            defer { pending = [] }
            return pending
        }
        for (player, event) in events.sorted(by: { $0.event.sequenceNumber < $1.event.sequenceNumber }) {
            handle(.player(player: player, event: event))
        }
    }
}

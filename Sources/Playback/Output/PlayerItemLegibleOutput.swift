import Locking

/// A push output of an item's timed text, like `AVPlayerItemLegibleOutput`: its block gets the cues shown (in order
/// of their start) every time that changes, an empty list when none is shown any more, with the item time of the
/// change. The block runs on the player's callback executor (never under a lock of the player: it may call the
/// player); under the manual and untimed clocks at the exact item time a cue starts or ends.
public final class PlayerItemLegibleOutput: Sendable {
    private let block: @Sendable (_ cues: [TextCue], _ itemTime: MediaTime) -> Void
    private let shown = Locked<[TextCue]>([])

    /// An output calling `block` with the cues shown each time they change.
    public init(_ block: @escaping @Sendable (_ cues: [TextCue], _ itemTime: MediaTime) -> Void = { _, _ in }) {
        self.block = block
    }

    /// The cues shown now (already up to date when the block runs).
    public var currentCues: [TextCue] { shown.withLock { $0 } }

    /// Called by the engine under its lock: records `cues` and returns the app code to run for them.
    func receive(_ cues: [TextCue], itemTime: MediaTime) -> @Sendable () -> Void {
        shown.withLock { $0 = cues }
        let block = self.block
        return { block(cues, itemTime) }
    }
}

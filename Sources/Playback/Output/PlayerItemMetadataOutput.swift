/// A push output of an item's timed metadata, like `AVPlayerItemMetadataOutput` with its push delegate: its block
/// gets the samples of the item's timed metadata track (ID3 in MPEG-TS, in HLS too; MP4 `emsg`, `mebx`) as the playhead reaches them,
/// in order of their time, with the item time they were delivered at; again after a seek back before them. The
/// block runs on the player's callback executor (never under a lock of the player: it may call the player); under
/// the manual and untimed clocks at each sample's exact time.
public final class PlayerItemMetadataOutput: Sendable {
    private let block: @Sendable (_ samples: [TimedMetadataSample]) -> Void
    private let flushed: @Sendable () -> Void

    /// An output calling `block` with the samples reached, each time some are, and `flushed` when the item jumps
    /// (a seek landed: what comes next does not follow what came before).
    public init(
        flushed: @escaping @Sendable () -> Void = {},
        _ block: @escaping @Sendable (_ samples: [TimedMetadataSample]) -> Void
    ) {
        self.block = block
        self.flushed = flushed
    }

    /// Called by the engine under its lock when a seek landed: the app code to run.
    func flush() -> @Sendable () -> Void { flushed }

    /// Called by the engine under its lock: the app code to run for `samples`.
    func receive(_ samples: [TimedMetadataSample]) -> @Sendable () -> Void {
        let block = self.block
        return { block(samples) }
    }
}

extension PlayerItem {
    /// Adds a timed metadata output: its block gets the samples the playhead reaches, on the player's callback
    /// executor (like `AVPlayerItemMetadataOutput`'s push delegate).
    public func add(_ output: PlayerItemMetadataOutput) {
        state.withLock { $0.metadataOutputs.append(output) }
    }

    /// Removes a timed metadata output: nothing more is handed to it (deliveries already on the callback executor
    /// still run).
    public func remove(_ output: PlayerItemMetadataOutput) {
        state.withLock { $0.metadataOutputs.removeAll { $0 === output } }
    }
}

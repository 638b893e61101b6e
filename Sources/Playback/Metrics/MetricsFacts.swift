import MediaIO

/// What the metrics deriver asks the player about, beyond its events. The engine answers under its lock (the
/// deriver runs inside the engine's event emission); tests answer with fixed values.
protocol MetricsFacts {
    /// Whether the frame shown at `target` is already decoded: between the frame on screen and the last frame
    /// waiting in the video queue, with no other seek in flight.
    func isDecoded(_ target: MediaTime) -> Bool
    /// Why the rate is changing (read when a rate event is emitted).
    var rateChangeReason: RateChangeReason { get }
    /// Frames shown and dropped since the player was created.
    var frameCounts: (rendered: Int, dropped: Int) { get }
    /// The current item object (events name items only by file name).
    var currentPlayerItem: PlayerItem? { get }
}

extension PlayerEngine: MetricsFacts {
    func isDecoded(_ target: MediaTime) -> Bool {
        // Called while the new seek's record exists: another one means a seek was in flight, and the queue then
        // holds frames of that seek, not of the position on screen.
        guard seekRecords.count <= 1, let video = currentSession?.video else { return false }
        video.condition.lock()
        defer { video.condition.unlock() }
        guard !video.hasPendingSeek, let lower = lastFrame?.time ?? video.frames.first?.time,
              let upper = video.frames.last?.time ?? lastFrame?.time else { return false }
        return lower <= target && target <= upper
    }

    var frameCounts: (rendered: Int, dropped: Int) { (framesRendered, framesDropped) }

    var currentPlayerItem: PlayerItem? { currentItem }

    /// Runs `work` after the engine releases its lock (with the other deferred callbacks), timed by the hang
    /// watchdog under `label`.
    func deferCallback(_ label: String, _ work: @escaping @Sendable () -> Void) {
        let watchdog = metrics.watchdog
        deferred.append { watchdog.measure(label, work) }
    }
}

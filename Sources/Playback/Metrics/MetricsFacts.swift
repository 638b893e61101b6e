/// What the metrics deriver asks the player about, beyond its events. The core answers under its lock (the
/// deriver runs inside the core's event emission); tests answer with fixed values.
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
    /// What the loader last reported for `item`, when its bytes come over a link.
    func network(of item: PlayerItem?) -> ByteSourceProgress?
    /// The audio/video offset at the last frame shown while playing (host clock), if any.
    var avsync: Double? { get }
    /// The media loaded of `item` when it is adaptive (the segments downloaded or read); nil for other items.
    func segmentsLoaded(of item: PlayerItem?) -> [TimeRange]?
}

extension MetricsFacts {
    func network(of item: PlayerItem?) -> ByteSourceProgress? { item?.networkProgress }
    var avsync: Double? { nil }
    func segmentsLoaded(of item: PlayerItem?) -> [TimeRange]? { item?.segmentsLoaded }
}

extension PlayerCore: MetricsFacts {
    func isDecoded(_ target: MediaTime) -> Bool {
        // Called while the new seek's record exists: another one means a seek was in flight, and the queue then
        // holds frames of that seek, not of the position on screen.
        guard state.seeks.records.count <= 1, let video = currentLoaded?.video?.snapshot(), !video.hasPendingSeek,
            let lower = state.presentation.lastFrameTime ?? video.first,
            let upper = video.last ?? state.presentation.lastFrameTime
        else { return false }
        return lower <= target && target <= upper
    }

    var rateChangeReason: RateChangeReason { state.rateChangeReason }

    var frameCounts: (rendered: Int, dropped: Int) {
        (state.presentation.framesRendered, state.presentation.framesDropped)
    }

    var currentPlayerItem: PlayerItem? { currentItem }

    var avsync: Double? { state.presentation.avsync }
}

/// What the bytes of a remote item held so far mean in media time, measured at one playhead: how much is buffered
/// ahead, which time ranges are loaded, whether everything left is there, and whether the download keeps up with the
/// media. A value the engine computes at each buffer report.
struct RemoteBuffer: Sendable, Equatable {
    /// Seconds of media held without a gap from the playhead on.
    var bufferedAhead: Double
    /// The media time ranges whose bytes are held.
    var loadedRanges: [TimeRange]
    /// Every byte from the reader's position to the end is held.
    var isComplete: Bool
    /// Seconds by which the download is predicted to miss the playhead before the end (0: it keeps up, or nothing
    /// was measured yet).
    var predictedShortfall: Double

    /// The buffer of `progress` (the primary reader's source) at `playhead`, with `timeline` mapping bytes to times
    /// and `duration` the item's.
    static func measure(
        _ progress: ByteSourceProgress, timeline: ByteTimeline?, duration: Double?,
        playhead: Double
    ) -> RemoteBuffer {
        var timeline = timeline ?? ByteTimeline(points: [])
        timeline.totalLength = timeline.totalLength ?? progress.totalLength
        timeline.duration = timeline.duration ?? duration
        let heldEnd = progress.position + progress.contiguousAhead
        let complete = progress.isComplete
        let end = duration ?? .infinity
        let ahead: Double
        if complete {
            ahead = max(end - playhead, 0)
        } else {
            ahead = max((timeline.seconds(atByte: heldEnd) ?? playhead) - playhead, 0)
        }
        var ranges: [TimeRange] = []
        for bytes in progress.heldRanges {
            guard let start = timeline.seconds(atByte: bytes.lowerBound),
                let stop = timeline.seconds(atByte: bytes.upperBound), stop > start
            else { continue }
            let range = TimeRange(start: MediaTime(seconds: start), duration: MediaTime(seconds: stop - start))
            if let last = ranges.last, range.start <= last.end {
                ranges[ranges.count - 1] = TimeRange(start: last.start, duration: max(last.end, range.end) - last.start)
            } else {
                ranges.append(range)
            }
        }
        var shortfall = 0.0
        if !complete, let rate = progress.bytesPerSecond, rate > 0, let total = timeline.totalLength, total > 0,
            let duration, duration > 0
        {
            // Media seconds the link brings per second, against the media's average byte rate.
            let ratio = rate / (Double(total) / duration)
            let remaining = max(duration - playhead, 0)
            let missing = max(remaining - ahead, 0)
            if ratio < 1 { shortfall = max(missing / ratio - remaining, 0) }
        }
        return RemoteBuffer(
            bufferedAhead: ahead, loadedRanges: ranges, isComplete: complete,
            predictedShortfall: shortfall)
    }
}

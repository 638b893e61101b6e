import MediaIO

/// Converts a track's timestamps to microseconds from the start of the media, as `VideoFrameReader` measures.
struct TickClock {
    let startTicks: Int64
    let numerator: Int64
    let denominator: Int64

    init(demuxer: Demuxer, track: TrackInfo) {
        numerator = Int64(max(track.timeBase.num, 1))
        denominator = Int64(max(track.timeBase.den, 1))
        // The container start, in AV_TIME_BASE (microsecond) units, rescaled to the track's ticks, to nearest.
        let ticks = Double(demuxer.startTime) * Double(denominator) / (1e6 * Double(numerator))
        startTicks = Int64(ticks.rounded())
    }

    /// `ticks` as microseconds from the start of the media, to the nearest (for display).
    func microsecondsNearest(_ ticks: Int64) -> Int64 {
        let exact = Double(ticks - startTicks) * Double(numerator) * 1e6 / Double(denominator)
        return Int64(exact.rounded())
    }

    /// `ticks` as microseconds from the start of the media, rounded up, so that a seek to the printed time lands
    /// on that frame and not the one before.
    func microsecondsRoundedUp(_ ticks: Int64) -> Int64 {
        let relative = ticks - startTicks
        let (scaled, overflow) = relative.multipliedReportingOverflow(by: numerator * 1_000_000)
        guard !overflow else {
            return Int64((Double(relative) * Double(numerator) * 1e6 / Double(denominator)).rounded(.up))
        }
        let quotient = scaled / denominator
        return scaled % denominator > 0 ? quotient + 1 : quotient
    }
}

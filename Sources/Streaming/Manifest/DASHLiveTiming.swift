import MediaCore

/// The timing of a dynamic (live) MPD (ISO/IEC 23009-1 §5.3.1.2, §5.3.9.5.3): when its segments become available by
/// the wall clock, how far back they stay, how often the MPD is reloaded and how far behind the live edge a play
/// starts.
struct DASHLiveTiming {
    /// `MPD@availabilityStartTime`, in seconds since 1970.
    var availabilityStartTime: Double
    /// `MPD@publishTime`, in seconds since 1970, when given.
    var publishTime: Double?
    /// `MPD@minimumUpdatePeriod` in seconds: how often the MPD may change; nil when it does not.
    var minimumUpdatePeriod: Double?
    /// `MPD@timeShiftBufferDepth` in seconds: how long a segment stays available after its end; nil: for ever.
    var timeShiftBufferDepth: Double?
    /// `MPD@suggestedPresentationDelay` in seconds: how far behind the live edge to play.
    var suggestedPresentationDelay: Double?
    /// `Period@start` in seconds from the availability start time.
    var periodStart: Double
    /// The wall clock when the MPD was read, in seconds since 1970.
    var now: Double

    /// Seconds of the period elapsed by the wall clock (negative before it starts).
    var elapsed: Double { now - availabilityStartTime - periodStart }

    /// The timing of the dynamic MPD `root` whose first Period is `period`, read at `now`.
    static func read(
        _ root: XMLTreeElement, period: XMLTreeElement, now: Double, url: String
    ) throws(MediaError) -> DASHLiveTiming {
        func duration(_ name: String, of element: XMLTreeElement) throws(MediaError) -> Double? {
            guard let text = element[name] else { return nil }
            guard let seconds = ISO8601Duration.seconds(text) else {
                throw DASHManifestParser.malformed(
                    url, "\(element.name)@\(name) is not an ISO 8601 duration: '\(text)'")
            }
            return seconds
        }
        func date(_ name: String) throws(MediaError) -> Double? {
            guard let text = root[name] else { return nil }
            guard let seconds = HLSMediaPlaylistReader.date(Substring(text.trimmingWhitespace())) else {
                throw DASHManifestParser.malformed(url, "MPD@\(name) is not an ISO 8601 date and time: '\(text)'")
            }
            return seconds
        }
        guard let start = try date("availabilityStartTime") else {
            throw DASHManifestParser.malformed(url, "a dynamic MPD without MPD@availabilityStartTime")
        }
        return DASHLiveTiming(
            availabilityStartTime: start, publishTime: try date("publishTime"),
            minimumUpdatePeriod: try duration("minimumUpdatePeriod", of: root),
            timeShiftBufferDepth: try duration("timeShiftBufferDepth", of: root),
            suggestedPresentationDelay: try duration("suggestedPresentationDelay", of: root),
            periodStart: try duration("start", of: period) ?? 0, now: now)
    }

    /// The segments of a `SegmentTemplate@duration` available now: segment `i` (numbered `startNumber + i`) spans
    /// `i * duration ..< (i + 1) * duration` of the period and is available once it has ended by the wall clock, until
    /// the time shift buffer has passed it. At most `limit`, the newest.
    func segmentIndices(duration: Int64, timescale: Double, limit: Int) -> Range<Int> {
        let seconds = Double(duration) / timescale
        let complete = (elapsed / seconds + 1e-9).rounded(.down)
        guard complete >= 1, complete < 1e12 else { return 0..<0 }
        let end = Int(complete)
        var first = 0
        if let depth = timeShiftBufferDepth {
            // Available while its end is within the buffer depth of now.
            first = max(0, Int(((elapsed - depth) / seconds - 1e-9).rounded(.up)) - 1)
        }
        return max(first, end - limit)..<end
    }
}

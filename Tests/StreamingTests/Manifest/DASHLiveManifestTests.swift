import Foundation
import MediaCore
import Testing

@testable import Streaming

/// Dynamic (live) MPDs read at a chosen wall clock: their timing attributes, the segments a `SegmentTemplate@duration`
/// makes available by the clock, and a `SegmentTimeline` as listed.
@Suite("DASH live manifests")
struct DASHLiveManifestTests {
    static let url = ManifestSamples.mpdURL
    /// `availabilityStartTime` of the MPDs below: 2027-01-15T08:00:00Z.
    static let start = 1_800_000_000.0

    /// A dynamic MPD of one video Representation `v` addressed by `body`, with `attributes` on the MPD.
    static func mpd(_ body: String, attributes: String = "", periodStart: String = "PT0S") -> String {
        """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2027-01-15T08:00:00Z" \
        publishTime="2027-01-15T08:01:00.500Z" \(attributes)>
          <Period id="p0" start="\(periodStart)"><AdaptationSet contentType="video">
            <Representation id="v" bandwidth="1000">\(body)</Representation>
          </AdaptationSet></Period>
        </MPD>
        """
    }

    static let numbered =
        "<SegmentTemplate timescale=\"1000\" duration=\"2000\" startNumber=\"10\" media=\"$Number$.m4s\" initialization=\"i.mp4\"/>"

    static func playlist(_ text: String, now: Double) throws -> MediaPlaylist {
        let presentation = try DASHManifestParser.parse(text, url: url, now: now)
        guard case .segments(let playlist)? = presentation.variants.first?.media else {
            Issue.record("no listed segments")
            return MediaPlaylist(kind: .vod, targetDuration: 0, segments: [], hasEnd: true)
        }
        return playlist
    }

    @Test("its attributes: availability start, publish time, update period, time shift depth, delay, Period@start")
    func attributes() throws {
        let root = try XMLTreeElement.parse(
            Array(
                Self.mpd(
                    Self.numbered,
                    attributes:
                        "minimumUpdatePeriod=\"PT4S\" timeShiftBufferDepth=\"PT30S\" suggestedPresentationDelay=\"PT5S\"",
                    periodStart: "PT1M"
                ).utf8), url: Self.url)
        let period = try #require(root.child("Period"))
        let timing = try DASHLiveTiming.read(root, period: period, now: Self.start + 100, url: Self.url)
        #expect(timing.availabilityStartTime == Self.start)
        #expect(timing.publishTime == Self.start + 60.5)
        #expect(timing.minimumUpdatePeriod == 4 && timing.timeShiftBufferDepth == 30)
        #expect(timing.suggestedPresentationDelay == 5 && timing.periodStart == 60)
        #expect(timing.elapsed == 40, "100 s after the availability start, 40 s into the period")
    }

    @Test(
        "$Number$ by the wall clock: the segments complete now, within the time shift buffer, numbered from startNumber"
    )
    func numberByClock() throws {
        let text = Self.mpd(
            Self.numbered, attributes: "timeShiftBufferDepth=\"PT10S\" suggestedPresentationDelay=\"PT5S\"")
        // 21.5 s in: segments 0-9 (0-20 s) are complete, the 11th in progress; those ending within 10 s of now stay.
        let playlist = try Self.playlist(text, now: Self.start + 21.5)
        #expect(!playlist.hasEnd && playlist.kind == .live)
        #expect(playlist.segments.map(\.sequence) == [15, 16, 17, 18, 19], "numbers startNumber + 5 ... + 9")
        #expect(playlist.segments.map(\.url) == (15...19).map { "https://cdn.example.com/show/\($0).m4s" })
        #expect(playlist.segments.first?.start == 10 && playlist.segments.allSatisfy { $0.duration == 2 })
        #expect(playlist.segments.first?.programDate == Self.start + 10, "dated from the availability start")
        #expect(playlist.mediaSequence == 15 && playlist.targetDuration == 2)
        #expect(playlist.suggestedLiveOffset == 5 && playlist.reloadInterval == nil, "reloads paced by the segments")
        #expect(LivePlaylist.recommendedOffset(of: playlist) == 5, "the suggested delay is the default distance")
        // The next segment (20-22 s) becomes available at its end, 22 s: the next reload is timed to it.
        func wait(_ now: Double, stale: Int = 0) -> Double {
            LivePlaylist.reloadWait(playlist, staleReloads: stale, now: Self.start + now, byClock: true)
        }
        #expect(abs(wait(21.5) - 0.6) < 1e-6)
        #expect(wait(30) == 0.1, "late: at once")
        #expect(wait(-99) == 2, "at most a segment")
        #expect(wait(21.5, stale: 1) == 1, "after an empty reload: as HLS")
        #expect(LivePlaylist.reloadWait(playlist, staleReloads: 0, now: Self.start + 21.5) == 2, "HLS: its target")
        // Exactly at a segment's end it is complete; a moment before, not.
        #expect(try Self.playlist(text, now: Self.start + 22).segments.last?.sequence == 20)
        #expect(try Self.playlist(text, now: Self.start + 21.999).segments.last?.sequence == 19)
        // Before the first segment is complete: none.
        #expect(try Self.playlist(text, now: Self.start + 1.9).segments.isEmpty)
        #expect(try Self.playlist(text, now: Self.start - 50).segments.isEmpty)
    }

    @Test("no time shift buffer: every segment since the start, the newest 256 at most; Period@start shifts the count")
    func unbounded() throws {
        let all = try Self.playlist(Self.mpd(Self.numbered), now: Self.start + 20)
        #expect(all.segments.map(\.sequence) == Array(10...19))
        #expect(LivePlaylist.recommendedOffset(of: all) == 6, "no suggested delay: three target durations")
        let day = try Self.playlist(Self.mpd(Self.numbered), now: Self.start + 86_400)
        #expect(day.segments.count == StreamSession.liveSegmentLimit)
        #expect(day.segments.last?.sequence == 10 + 43_199)
        let later = try Self.playlist(Self.mpd(Self.numbered, periodStart: "PT10S"), now: Self.start + 20)
        #expect(later.segments.map(\.sequence) == Array(10...14), "10 s into a period that starts at 10 s")
        #expect(later.segments.first?.programDate == Self.start + 10)
    }

    @Test("a SegmentTimeline as listed: $Time$, minimumUpdatePeriod paces the reloads, r=-1 up to now")
    func timeline() throws {
        let body = """
            <SegmentTemplate timescale="90000" startNumber="7" media="$Time$.m4s" initialization="i.mp4" \
            presentationTimeOffset="900000">
              <SegmentTimeline><S t="1080000" d="180000" r="2"/><S d="90000"/></SegmentTimeline>
            </SegmentTemplate>
            """
        let playlist = try Self.playlist(
            Self.mpd(body, attributes: "minimumUpdatePeriod=\"PT2S\""), now: Self.start + 30)
        #expect(
            playlist.segments.map(\.url).map { $0.split(separator: "/").last! } == [
                "1080000.m4s", "1260000.m4s", "1440000.m4s", "1620000.m4s",
            ])
        #expect(playlist.segments.map(\.sequence) == [7, 8, 9, 10])
        #expect(playlist.segments.map(\.duration) == [2, 2, 2, 1])
        #expect(playlist.segments.first?.start == 2, "(t - presentationTimeOffset) / timescale")
        #expect(playlist.segments.first?.programDate == Self.start + 2)
        #expect(playlist.reloadInterval == 2 && !playlist.hasEnd)
        let wait = LivePlaylist.reloadWait(playlist, staleReloads: 0, now: Self.start + 30, byClock: true)
        #expect(wait == 2, "minimumUpdatePeriod, not the clock")
        #expect(LivePlaylist.reloadWait(playlist, staleReloads: 2, now: Self.start + 30, byClock: true) == 1)
        let repeating = """
            <SegmentTemplate timescale="1" media="$Time$.m4s"><SegmentTimeline><S t="0" d="2" r="-1"/></SegmentTimeline>
            </SegmentTemplate>
            """
        let now = try Self.playlist(Self.mpd(repeating), now: Self.start + 8)
        #expect(now.segments.map(\.url).map { $0.split(separator: "/").last! } == ["0.m4s", "2.m4s", "4.m4s", "6.m4s"])
    }

    @Test("refused: several Periods, SegmentBase or SegmentList, no availabilityStartTime; malformed dates")
    func refused() {
        func error(_ text: String) -> MediaError? {
            do {
                _ = try DASHManifestParser.parse(text, url: Self.url, now: Self.start + 10)
                Issue.record("no error for:\n\(text)")
                return nil
            } catch { return error }
        }
        let twoPeriods = Self.mpd(Self.numbered).replacingOccurrences(
            of: "</MPD>", with: "<Period start=\"PT1H\"/></MPD>")
        #expect(error(twoPeriods)?.kind == .refusedByPolicy)
        #expect(error(twoPeriods)?.reason.contains("several Periods") == true)
        let base = Self.mpd("<SegmentBase indexRange=\"100-200\"/>")
        #expect(error(base)?.kind == .refusedByPolicy)
        #expect(error(base)?.reason.contains("without a SegmentTemplate") == true)
        let noStart = Self.mpd(Self.numbered).replacingOccurrences(
            of: "availabilityStartTime=\"2027-01-15T08:00:00Z\"", with: "")
        #expect(error(noStart)?.kind == .malformedManifest)
        #expect(error(noStart)?.reason.contains("availabilityStartTime") == true)
        let badDate = Self.mpd(Self.numbered).replacingOccurrences(of: "2027-01-15T08:00:00Z", with: "yesterday")
        #expect(error(badDate)?.reason.contains("'yesterday'") == true)
        let badDelay = Self.mpd(Self.numbered, attributes: "suggestedPresentationDelay=\"5s\"")
        #expect(error(badDelay)?.reason.contains("suggestedPresentationDelay") == true)
    }
}

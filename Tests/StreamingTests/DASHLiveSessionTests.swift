import Foundation
import Loading
import Locking
import MediaCore
import PlaybackTesting
import Testing

@testable import Streaming

/// Live DASH through the stream session in virtual time: a dynamic MPD served by a real nginx, the session's wall
/// clock a value the test moves, the session driven step by step (no thread, no real time waited). The same live
/// machinery as HLS: the edge, the reloads, the bounded window, the typed stall.
@Suite(
    "DASH live sessions", .serialized, .enabled(if: PrivateHTTPServer.skipReason == nil, "needs nginx"))
struct DASHLiveSessionTests {
    /// `availabilityStartTime` of the origin's MPDs: 2027-01-15T08:00:00Z.
    static let start = 1_800_000_000.0

    /// A folder served by nginx with the MPD `live.mpd`, and a wall clock the test moves.
    final class Origin {
        let directory: URL
        let server: PrivateHTTPServer
        let clock = Locked(DASHLiveSessionTests.start)
        init() throws {
            directory = try TemporaryDirectory.make(prefix: "playctl-dash-live")
            server = try PrivateHTTPServer(root: directory.path)
        }
        deinit {
            server.stop()
            TemporaryDirectory.remove(directory)
        }
        var url: String { server.url("live.mpd") }
        func write(_ text: String) throws {
            try text.write(toFile: directory.path + "/live.mpd", atomically: true, encoding: .utf8)
        }
        /// A session whose wall clock is the origin's plus `skew` seconds (a machine's clock set wrong).
        func session(skew: Double = 0) throws -> StreamSession {
            let loading = RemoteLoading(cache: ByteCache(memoryLimit: 4 << 20), transport: HTTPLoader())
            let clock = self.clock
            return try StreamSession.open(
                url: url, loading: loading, limits: ABRLimits(), forwardSeconds: 30,
                bandwidthEstimate: SharedBandwidthEstimate(), preferredAudioLanguage: nil, liveOffset: nil,
                startsThreads: false, wallClock: { clock.withLock { $0 } + skew })
        }
    }

    static func mpd(_ template: String, attributes: String) -> String {
        """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2027-01-15T08:00:00Z" \
        \(attributes)>
          <Period start="PT0S"><AdaptationSet contentType="video">
            <Representation id="v" bandwidth="800000" width="640" height="360">\(template)</Representation>
          </AdaptationSet></Period>
        </MPD>
        """
    }

    @Test("$Number$ by the clock: the edge at the suggested delay, each reload lists what the clock made, bounded")
    func numberByClock() throws {
        let origin = try Origin()
        try origin.write(
            Self.mpd(
                "<SegmentTemplate timescale=\"1000\" duration=\"2000\" startNumber=\"1\" media=\"s$Number$.m4s\"/>",
                attributes: "timeShiftBufferDepth=\"PT10S\" suggestedPresentationDelay=\"PT4S\""))
        origin.clock.withLock { $0 = Self.start + 20.5 }
        let session = try origin.session()
        #expect(session.isLive && session.duration == nil)
        #expect(session.recommendedLiveOffset == 4)
        // Segments 6-10 (10-20 s) are available; the edge: the last that starts 4 s before 20 s, number 9.
        var reader = session.startIndex
        let first = try #require(try session.segment(at: reader, reading: true))
        #expect(first.segment.sequence == 9 && first.segment.url.hasSuffix("/s9.m4s"))
        #expect(session.liveOffset(playhead: 0) == 4)
        var most = 0
        for step in 1...300 {
            origin.clock.withLock { $0 += 2 }
            #expect(session.reloadLiveOnce(), "reloads go on")
            reader += 1
            let read = try #require(try session.segment(at: reader, reading: true))
            session.readerEntered(reader)
            #expect(read.segment.sequence == 9 + step, "one number on per 2 s of the clock")
            most = max(most, session.retainedCounts.listed)
        }
        #expect(most <= StreamSession.liveSegmentsKeptBehind + 6, "listed at most \(most)")
        let last = try #require(try session.segment(at: reader))
        #expect(last.segment.url.hasSuffix("/s309.m4s"))
        #expect(abs(last.segment.start - first.segment.start - 600) < 1e-6, "times go on from the first load's")
        #expect(session.liveOffset(playhead: 600) == 4, "still the suggested delay behind the edge")
    }

    /// A timeline MPD listing the five segments before `end` (each 2 s, $Time$ in a 90 kHz timescale).
    static func timeline(end: Int) -> String {
        let first = max(0, end - 5)
        return mpd(
            """
            <SegmentTemplate timescale="90000" startNumber="\(first + 1)" media="t$Time$.m4s">
              <SegmentTimeline><S t="\(first * 180_000)" d="180000" r="\(end - first - 1)"/></SegmentTimeline>
            </SegmentTemplate>
            """, attributes: "minimumUpdatePeriod=\"PT2S\" timeShiftBufferDepth=\"PT10S\"")
    }

    @Test("a SegmentTimeline reloaded as it slides; an MPD that stops advancing is the typed stall HLS gives")
    func timelineAndStall() throws {
        let origin = try Origin()
        try origin.write(Self.timeline(end: 10))
        origin.clock.withLock { $0 = Self.start + 20.5 }
        let session = try origin.session()
        #expect(session.recommendedLiveOffset == 6, "no suggested delay: three segment durations")
        var reader = session.startIndex
        let first = try #require(try session.segment(at: reader, reading: true))
        #expect(first.segment.url.hasSuffix("/t\(7 * 180_000).m4s"), "\(first.segment.url)")
        for end in 11...40 {
            try origin.write(Self.timeline(end: end))
            origin.clock.withLock { $0 += 2 }
            #expect(session.reloadLiveOnce())
            reader += 1
            let read = try #require(try session.segment(at: reader, reading: true))
            session.readerEntered(reader)
            #expect(read.segment.url.hasSuffix("/t\((end - 3) * 180_000).m4s"), "\(read.segment.url)")
        }
        // The packager stops: the MPD no longer changes. Six reloads bring nothing; then the reader waiting for the
        // next segment gets the origin's stall, as for a live HLS playlist that stops.
        for _ in 1..<StreamSession.maximumStaleReloads {
            origin.clock.withLock { $0 += 1 }
            #expect(session.reloadLiveOnce())
        }
        #expect(!session.reloadLiveOnce(), "given up")
        _ = try session.segment(at: reader + 1)
        _ = try session.segment(at: reader + 2)
        do throws(MediaError) {
            _ = try session.segment(at: reader + 3, reading: true)
            Issue.record("a segment never listed was read")
        } catch {
            #expect(error.kind == .timedOut)
            #expect(error.url == origin.url)
            #expect(error.reason.contains("brought no new segment"), "\(error.reason)")
        }
    }
}

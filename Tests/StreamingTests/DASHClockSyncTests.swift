import Foundation
import MediaCore
import PlaybackTesting
import Testing

@testable import Streaming

/// A live MPD's `UTCTiming`: a session on a machine whose clock is wrong reads the origin's clock as the MPD says and
/// lists the segments the origin has made, in virtual time over nginx (``DASHLiveSessionTests/Origin``).
@Suite(
    "DASH live: the origin's clock (UTCTiming)", .serialized,
    .enabled(if: PrivateHTTPServer.skipReason == nil, "needs nginx"))
struct DASHClockSyncTests {
    typealias Live = DASHLiveSessionTests

    /// The `$Number$` MPD of ``DASHLiveSessionTests/numberByClock()`` with `timing` elements.
    static func mpd(_ timing: String) -> String {
        Live.mpd(
            "<SegmentTemplate timescale=\"1000\" duration=\"2000\" startNumber=\"1\" media=\"s$Number$.m4s\"/>",
            attributes: "timeShiftBufferDepth=\"PT10S\" suggestedPresentationDelay=\"PT4S\""
        ).replacingOccurrences(of: "<Period", with: "\(timing)<Period")
    }

    /// `seconds` after the origin's availability start, as an `xs:dateTime` (2027-01-15T08:00:20.500Z).
    static func date(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Live.start + seconds))
    }

    /// The first segment a session of `origin` reads (its number), its clock `skew` seconds off the origin's.
    func firstNumber(_ origin: Live.Origin, skew: Double) throws -> Int {
        let session = try origin.session(skew: skew)
        let first = try #require(try session.segment(at: session.startIndex, reading: true))
        return first.segment.sequence
    }

    @Test("http-iso: a clock 30 s ahead starts where the origin's does, and the reloads go on by the origin's clock")
    func httpISO() throws {
        let origin = try Live.Origin()
        try origin.write(Self.mpd(#"<UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="time.txt"/>"#))
        origin.clock.withLock { $0 = Live.start + 20.5 }
        try Self.date(20.5).write(toFile: origin.directory.path + "/time.txt", atomically: true, encoding: .utf8)
        // By the origin's clock segments 6-10 are complete; the edge 4 s behind is number 9 (numberByClock).
        #expect(try firstNumber(origin, skew: 30) == 9)
        // Without the element the same machine asks for number 24, 30 s of segments not made yet.
        let unsynchronized = try Live.Origin()
        try unsynchronized.write(Self.mpd(""))
        unsynchronized.clock.withLock { $0 = Live.start + 20.5 }
        #expect(try firstNumber(unsynchronized, skew: 30) == 24)
        // The offset holds for the reloads: 2 s of clock later the next segment is listed, not fifteen.
        let session = try origin.session(skew: 30)
        origin.clock.withLock { $0 += 2 }
        #expect(session.reloadLiveOnce())
        #expect(session.retainedCounts.listed <= 6, "\(session.retainedCounts)")
        let next = try #require(try session.segment(at: session.startIndex + 1, reading: true))
        #expect(next.segment.sequence == 10)
        #expect(
            session.liveOffset(playhead: 0) == 6,
            "the edge moved on by one segment: \(session.liveOffset(playhead: 0) ?? -1)")
    }

    @Test("direct: the MPD carries the time it was made; a clock 45 s behind starts at the origin's edge")
    func direct() throws {
        let origin = try Live.Origin()
        let timing = #"<UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="\#(Self.date(20.5))"/>"#
        try origin.write(Self.mpd(timing))
        origin.clock.withLock { $0 = Live.start + 20.5 }
        #expect(try firstNumber(origin, skew: -45) == 9)
    }

    @Test("unknown schemes, a time URL that fails, one not http(s): skipped in order, then the machine's clock")
    func fallbacks() throws {
        let origin = try Live.Origin()
        let timings = [
            #"<UTCTiming schemeIdUri="urn:mpeg:dash:utc:ntp:2014" value="pool.ntp.org"/>"#,
            #"<UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-xsdate:2014" value="missing.txt"/>"#,
            #"<UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="file:///etc/passwd"/>"#,
            #"<UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="not-a-date.txt"/>"#,
        ]
        try "yesterday".write(toFile: origin.directory.path + "/not-a-date.txt", atomically: true, encoding: .utf8)
        try origin.write(Self.mpd(timings.joined()))
        origin.clock.withLock { $0 = Live.start + 20.5 }
        #expect(try firstNumber(origin, skew: 0) == 9, "the machine's clock, right here")
        #expect(try firstNumber(origin, skew: 10) == 14, "the machine's clock, wrong: nothing corrected it")
        let parsed = DASHManifestParser.utcTimings(Array(Self.mpd(timings.joined()).utf8), url: origin.url)
        #expect(parsed.map(\.scheme) == [.unsupported("urn:mpeg:dash:utc:ntp:2014"), .httpDate, .httpDate, .httpDate])
        #expect(DASHManifestParser.utcTimings(Array(Self.mpd("").utf8), url: origin.url).isEmpty)
    }
}

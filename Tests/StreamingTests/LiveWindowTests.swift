import Foundation
import MediaCore
import PlaybackTesting
import Testing

@testable import Streaming

/// A long live play keeps a bounded window: the playlist's segments and the session's records per segment
/// (decisions, downloads, segments entered) behind the reader are dropped as the playlist slides. Thousands of
/// reloads of a live origin in virtual time (``LiveOrigin``: nginx serves what its clock lists), the session driven
/// step by step (no thread, no real time waited).
@Suite(
    "Live window bounds", .serialized, .enabled(if: PrivateHTTPServer.skipReason == nil, "needs nginx"))
struct LiveWindowTests {
    /// Every target duration (2 s of the origin's clock): the origin lists one more segment, the session reloads,
    /// the reader enters its next segment and the one after it is downloaded.
    private func step(_ origin: LiveOrigin, _ session: StreamSession, reader: inout Int, reads: Bool) throws {
        try origin.advance(to: origin.now + 2)
        #expect(session.reloadLiveOnce(), "reloads go on")
        guard reads else { return }
        reader += 1
        let read = try #require(try session.segment(at: reader, reading: true))
        session.readerEntered(reader)
        if let ahead = try session.segment(at: reader + 1) {
            session.withState { session.downloaded(reader + 1, bytes: 250_000, seconds: 0.2, &$0) }
            #expect(ahead.segment.sequence == read.segment.sequence + 1)
        }
    }

    @Test("3000 reloads of a sliding window: the segments and records kept stay bounded, indexes and times go on")
    func slidingWindow() throws {
        let origin = try LiveOrigin()
        let session = try origin.session()
        #expect(session.isLive)
        var reader = session.startIndex
        // The first load lists segments 5-9 (sequence 5 is index 0); the edge is three target durations back.
        #expect(reader == 2)
        let bound = StreamSession.liveSegmentsKeptBehind + origin.window + 1
        var most = (listed: 0, records: 0)
        for _ in 0..<3000 {
            try step(origin, session, reader: &reader, reads: true)
            let counts = session.retainedCounts
            most = (max(most.listed, counts.listed), max(most.records, counts.records))
        }
        #expect(most.listed <= bound, "segments listed at most \(most.listed), bound \(bound)")
        #expect(most.records <= 4 * bound, "records at most \(most.records)")
        // Index and sequence still line up after 3000 reloads, each segment's time on from the first load's.
        let last = try #require(try session.segment(at: reader))
        #expect(last.segment.sequence == 5 + reader)
        #expect(last.segment.url.hasSuffix("/v0-\(5 + reader).ts"))
        #expect(abs(last.segment.start - Double(reader) * 2) < 1e-6)
        #expect(session.index(containing: Double(reader - 2) * 2 + 0.5) == reader, "times from the play's start")
        #expect(session.loadedSpans.count == 1, "the reader's segment and the one downloaded: one span")
    }

    @Test("a reader that stops: at most 256 segments kept; reading a dropped one is a typed error")
    func pausedReader() throws {
        let origin = try LiveOrigin()
        let session = try origin.session()
        var reader = session.startIndex
        _ = try session.segment(at: reader, reading: true)
        session.readerEntered(reader)
        for index in 0..<400 {
            try step(origin, session, reader: &reader, reads: false)
            #expect(session.retainedCounts.listed == min(5 + index + 1, StreamSession.liveSegmentLimit))
        }
        #expect(session.retainedCounts.records <= 3 * StreamSession.liveSegmentLimit)
        do throws(MediaError) {
            _ = try session.segment(at: reader + 1, reading: true)
            Issue.record("a dropped segment was read")
        } catch {
            #expect(error.kind == .readFailed)
            #expect(error.url == origin.url)
            #expect(error.reason.contains("fell behind the live window"), "\(error.reason)")
        }
        // The newest segments are still there: the origin lists sequences 405-409, indexes 400-404.
        let newest = try #require(try session.segment(at: 404))
        #expect(newest.segment.sequence == 409)
    }
}

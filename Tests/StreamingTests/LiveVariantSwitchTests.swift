import Foundation
import MediaCore
import PlaybackTesting
import Testing

@testable import Streaming

/// ABR in a live play: the variants of a live master playlist, each media playlist reloaded while it is the one
/// played, segments matched across variants by media sequence number. A live origin in
/// virtual time (``LiveOrigin``, served by nginx) and a simulated link: each download's time is its bytes at the
/// link's rate of the moment; the session is driven step by step (no thread, no real time waited).
@Suite(
    "Live variant switching", .serialized, .enabled(if: PrivateHTTPServer.skipReason == nil, "needs nginx"))
struct LiveVariantSwitchTests {
    /// The ladder: 0.8, 2.5 and 5 Mbit/s.
    static let bandwidths = [800_000, 2_500_000, 5_000_000]

    /// One step per target duration (2 s of the origin's clock): the origin lists a segment more, the session
    /// reloads the playlist of the variant it plays, the reader enters its next segment, and every segment listed
    /// ahead of it is downloaded (its bytes those of the variant decided for it, its time theirs at `rate`).
    /// Returns the segment read.
    private func step(
        _ origin: LiveOrigin, _ session: StreamSession, reader: inout Int, rate: Double
    ) throws -> (variant: Variant, segment: Segment) {
        try origin.advance(to: origin.now + 2)
        #expect(session.reloadLiveOnce())
        reader += 1
        let read = try #require(try session.segment(at: reader, reading: true))
        session.readerEntered(reader)
        var ahead = reader + 1
        while session.withState({ ahead < $0.endIndex }), let next = try session.segment(at: ahead) {
            let bytes = Int64(next.variant.bandwidth / 8 * 2)
            session.withState { session.downloaded(ahead, bytes: bytes, seconds: Double(bytes) * 8 / rate, &$0) }
            ahead += 1
        }
        return read
    }

    @Test(
        "8 -> 1.2 -> 8 Mbit/s: up to the top, down in the dip, up again; segments continuous across switches",
        arguments: [false, true])
    func switchesWithTheLink(dated: Bool) throws {
        // Dated: the variants number their segments apart and are matched by program date.
        let origin = try LiveOrigin(bandwidths: Self.bandwidths, dated: dated)
        let session = try origin.session()
        #expect(session.isLive)
        var reader = session.startIndex
        let first = try #require(try session.segment(at: reader, reading: true))
        session.readerEntered(reader)
        #expect(first.variant.id == "0", "the default estimate (500 kbit/s) starts at the lowest")
        var reads: [(variant: Variant, segment: Segment)] = [first]
        for phase in [(30, 8_000_000.0), (30, 1_200_000), (40, 8_000_000)] {
            for _ in 0..<phase.0 { reads.append(try step(origin, session, reader: &reader, rate: phase.1)) }
        }
        let variants = reads.map(\.variant.id)
        // Every segment read is the decided variant's segment that follows the one before on the timeline: the
        // origin's segment n is index n - 5 (the first load listed 5-9).
        for (offset, read) in reads.enumerated() {
            let number = session.startIndex + offset + 5
            let id = try #require(Int(read.variant.id))
            #expect(read.segment.url.hasSuffix("/v\(id)-\(number).ts"), "\(read.segment.url)")
            #expect(read.segment.sequence == number + (dated ? 1000 * id : 0), "its own media sequence number")
            #expect(abs(read.segment.start - Double(number - 5) * 2) < 1e-6, "the session's timeline")
        }
        #expect(variants[25..<31].allSatisfy { $0 == "2" }, "the top variant at 8 Mbit/s: \(variants)")
        #expect(variants[50..<61].allSatisfy { $0 == "0" }, "the lowest in the dip: \(variants)")
        #expect(variants.suffix(10).allSatisfy { $0 == "2" }, "the top again: \(variants)")
        let switches = session.switches
        #expect(switches.count >= 4 && switches.count <= 7, "\(switches.map { "\($0.segmentIndex):\($0.to.id)" })")
        #expect(switches.contains { $0.reason == "bandwidthDown" || $0.reason == "bufferLow" })
        // Only the variant played is reloaded: each variant's playlist was loaded when switched to, then reloaded
        // while played; the counts stay bounded as the window slides.
        #expect(session.retainedCounts.listed <= StreamSession.liveSegmentsKeptBehind + origin.window + 1)
    }

    @Test("a variant whose playlist does not list the segment's sequence number is a typed error naming it")
    func unalignedVariant() throws {
        let origin = try LiveOrigin(bandwidths: Self.bandwidths)
        let session = try origin.session(limits: ABRLimits(pinnedVariantID: "0"))
        var reader = session.startIndex
        _ = try session.segment(at: reader, reading: true)
        session.readerEntered(reader)
        for _ in 0..<3 { _ = try step(origin, session, reader: &reader, rate: 8_000_000) }
        // Variant 2's playlist stops being updated (its encoder stalled); the play switches to it. The segments
        // downloaded ahead stay variant 0's; the next one is variant 2's, which its playlist never lists.
        origin.frozen = [2]
        try origin.advance(to: origin.now + 2)
        #expect(session.reloadLiveOnce())
        session.setLimits(ABRLimits(pinnedVariantID: "2"))
        let end = session.withState { $0.endIndex }
        do throws(MediaError) {
            for index in (reader + 1)..<end {
                let read = try session.segment(at: index, reading: true)
                #expect(read?.variant.id == "0", "a segment downloaded ahead keeps its variant")
            }
            Issue.record("a segment of the stalled variant was read")
        } catch {
            #expect(error.kind == .malformedManifest)
            #expect(error.url.hasSuffix("/v2.m3u8"))
            #expect(error.reason.contains("media sequence"), "\(error.reason)")
        }
    }
}

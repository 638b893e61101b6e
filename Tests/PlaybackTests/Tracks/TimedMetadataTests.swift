import Foundation
import Locking
import MediaIO
import PlaybackTesting
import Testing

@testable import Playback

/// Timed metadata (ID3 in MPEG-TS) delivered as the playhead reaches it: `Media/id3.ts` (made by
/// `Media/make-id3.py`) has a sample at 0.5, 1.5, 2.5 and 3.5 s of its 4 s.
@Suite("Timed metadata: ID3 samples at their times")
struct TimedMetadataTests {
    /// The frames of each sample, as `Media/make-id3.py` wrote them.
    static let frameIDs = [["TXXX"], ["TIT2", "WXXX"], ["PRIV"], ["TXXX", "COMM", "GEOB"]]
    static let times = [0.5, 1.5, 2.5, 3.5]

    /// What an output got: each delivery's samples, and the flushes between them.
    final class Log: Sendable {
        enum Entry: Equatable, Sendable {
            case samples([Double])
            case flushed
        }
        let entries = Locked<[Entry]>([])
        let output: PlayerItemMetadataOutput

        init() {
            let entries = self.entries
            output = PlayerItemMetadataOutput(
                flushed: { entries.withLock { $0.append(.flushed) } },
                { samples in entries.withLock { $0.append(.samples(samples.map(\.time.seconds))) } })
        }
    }

    /// The `.timedMetadata` events a player reports: the item time each was reported at, and the sample.
    final class Events: Sendable {
        let reported = Locked<[(itemTime: Double, sample: TimedMetadataSample)]>([])
        init(_ player: Player) {
            player.observeEvents { [reported] event in
                guard case .timedMetadata(let sample) = event.kind else { return }
                reported.withLock { $0.append((event.itemTime.seconds, sample)) }
            }
        }
        var times: [Double] { reported.withLock { $0.map(\.sample.time.seconds) } }
    }

    /// Plays `path` to its end on the untimed clock: the events reported and what an output got.
    static func play(_ path: String) async throws -> (Events, Log) {
        let item = PlayerItem(url: path)
        let log = Log()
        item.add(log.output)
        let player = Player(clock: .untimed, audio: true)
        defer { player.invalidate() }
        let events = Events(player)
        let ended = AsyncStream.makeStream(of: Void.self)
        player.observeEvents { if $0.kind == .didPlayToEnd { ended.continuation.yield() } }
        player.play()
        player.replaceCurrentItem(with: item)
        _ = try await firstElement(of: ended.stream, "\(path) to play to its end")
        await player.callbacksDelivered()
        return (events, log)
    }

    @Test("untimed clock: each sample once, at its exact item time, with its frames; the output gets each")
    func untimed() async throws {
        let (events, log) = try await Self.play(TrackClips.path("id3.ts"))
        let reported = events.reported.withLock { $0 }
        #expect(reported.map(\.sample.time.seconds) == Self.times)
        #expect(reported.map(\.itemTime) == Self.times, "each at its own time, not at the next frame")
        #expect(reported.map { $0.sample.frames.map(\.id) } == Self.frameIDs)
        #expect(reported[0].sample.frames[0] == ID3Frame(id: "TXXX", description: "title", text: "Chapter 1"))
        #expect(log.entries.withLock { $0 } == Self.times.map { .samples([$0]) })
    }

    /// id3.ts, and emsg.mp4 (MP4 `emsg` boxes at the same times, `Media/make-mp4meta.py`), from the file and as
    /// an fMP4 HLS stream over HTTP (its segments repositioned at each seek).
    @Test(
        "manual clock: a seek forward skips the samples before its target; a seek back delivers them again",
        arguments: [
            TrackClips.path("id3.ts"), TrackClips.path("emsg.mp4"), TestHTTPServer.url("emsg-hls/index.m3u8"),
        ])
    func seeks(source: String) async throws {
        let clock = ManualClock()
        let item = PlayerItem(url: source)
        let log = Log()
        item.add(log.output)
        let player = Player(clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let events = Events(player)
        player.replaceCurrentItem(with: item)
        player.play()
        await clock.advance(bySeconds: 0.1)
        // Forward from 0.1 to 2.2 s: 0.5 and 1.5 are passed over.
        _ = await player.seek(to: MediaTime(seconds: 2.2), toleranceBefore: .zero, toleranceAfter: .zero)
        await clock.advance(bySeconds: 0.5)
        #expect(events.times == [2.5])
        // Back to 1.0 s: 1.5 and 2.5 again, then 3.5.
        _ = await player.seek(to: MediaTime(seconds: 1.0), toleranceBefore: .zero, toleranceAfter: .zero)
        await clock.advance(bySeconds: 3)
        await player.callbacksDelivered()
        #expect(events.times == [2.5, 1.5, 2.5, 3.5])
        #expect(
            log.entries.withLock { $0 } == [
                .flushed, .samples([2.5]), .flushed, .samples([1.5]), .samples([2.5]), .samples([3.5]),
            ])
    }

    @Test("the samples read ahead are bounded in bytes; taking them lets the reader read on")
    func bounded() async throws {
        let limit = 700
        let pipeline = MetadataPipeline(
            byteLimit: limit,
            open: { (_: MediaTime?) throws(MediaError) in
                try TimedMetadataReader(demuxer: Demuxer(url: TrackClips.path("id3.ts")))
            },
            onChange: {})
        defer { pipeline.stop() }
        pipeline.start(name: "bounded")
        try await waitUntil("the metadata reader to fill its window") { pipeline.snapshot().isSettled }
        let snapshot = pipeline.snapshot()
        // Samples of 36, 60 and 73 bytes (each costing 256 more): the third one makes it full.
        #expect(snapshot.isFull && !snapshot.reachedEnd)
        #expect(snapshot.bytes >= limit && snapshot.bytes < limit + 73 + MetadataPipeline.sampleOverhead)
        #expect(pipeline.take(upTo: MediaTime(seconds: 2)).map(\.time.seconds) == [0.5, 1.5])
        // 73 + 417 bytes with their overhead fill it again: the reader waits before it can see the end.
        try await waitUntil("the metadata reader to read on") { pipeline.snapshot().isSettled }
        #expect(pipeline.snapshot().isFull)
        #expect(pipeline.take(upTo: .positiveInfinity).map(\.time.seconds) == [2.5, 3.5])
        try await waitUntil("the metadata reader to reach the end") { pipeline.snapshot().reachedEnd }
        #expect(pipeline.snapshot().bytes == 0)
    }

    @Test("the reader reads at most its lookahead past the playhead; a seek far ahead opens it at the target")
    func lookahead() async throws {
        let pipeline = MetadataPipeline(
            lookahead: MediaTime(seconds: 1),
            open: { (start: MediaTime?) throws(MediaError) in
                let reader = try TimedMetadataReader(demuxer: Demuxer(url: TrackClips.path("id3.ts")))
                if let start { try reader.seek(toAtOrBefore: start - MediaTime(seconds: 1)) }
                return reader
            },
            onChange: {})
        defer { pipeline.stop() }
        pipeline.start(name: "lookahead")
        try await waitUntil("the metadata reader to stop 1 s past the start") { pipeline.snapshot().isSettled }
        let snapshot = pipeline.snapshot()
        #expect(snapshot.isAhead && !snapshot.isFull && !snapshot.reachedEnd)
        let position = try #require(snapshot.position).seconds
        #expect(position > 1 && position < 1.5, "it stopped at the first packet past 1 s: \(position)")
        #expect(pipeline.nextTime?.seconds == 0.5)
        // The playhead at 1 s: it reads on to 2 s, the sample at 1.5 s on the way.
        #expect(pipeline.take(upTo: MediaTime(seconds: 1)).map(\.time.seconds) == [0.5])
        try await waitUntil("the metadata reader to stop 1 s past 1 s") {
            pipeline.snapshot().isAhead && pipeline.snapshot().position!.seconds > 2
        }
        #expect(pipeline.take(upTo: MediaTime(seconds: 2)).map(\.time.seconds) == [1.5])
        // A seek to 3.4 s, more than the lookahead past what it read: opened again there, 2.5 s is not delivered.
        pipeline.seek(to: MediaTime(seconds: 3.4))
        try await waitUntil("the metadata reader to read past 3.4 s") { pipeline.snapshot().isSettled }
        #expect(pipeline.take(upTo: MediaTime(seconds: 4)).map(\.time.seconds) == [3.5])
    }
}

import Foundation
import Locking
import MediaCore
import PlaybackTesting
import Testing

@testable import Streaming

/// A live master playlist whose variant names an audio rendition with a live playlist of its own (``LiveOrigin``
/// with `audio`: nginx serves what its virtual clock lists): the audio reader starts at the segment matching the
/// video's first, waits past the last one listed for the audio playlist's next reload, keeps a bounded window, and
/// gets a typed error naming the audio playlist when it stops. The session is driven step by step (no thread).
@Suite(
    "Live audio renditions", .serialized, .enabled(if: PrivateHTTPServer.skipReason == nil, "needs nginx"))
struct LiveAudioRenditionTests {
    /// The audio reader's segment `index`, read on a thread of its own (it may wait for a reload): its outcome once
    /// there.
    final class PendingRead: Sendable {
        let outcome = Locked<Result<Segment?, MediaError>?>(nil)
        init(_ session: StreamSession, _ index: Int) {
            let outcome = outcome
            Thread {
                let result: Result<Segment?, MediaError>
                do throws(MediaError) {
                    result = .success(try session.audioSegment(reading: index))
                } catch {
                    result = .failure(error)
                }
                outcome.withLock { $0 = result }
            }.start()
        }
        var result: Result<Segment?, MediaError>? { outcome.withLock { $0 } }
    }

    @Test(
        "the audio starts at the video's first segment (by media sequence, by date when numbered apart), timed alike",
        arguments: [false, true])
    func startsMatched(dated: Bool) throws {
        let origin = try LiveOrigin(dated: dated, audio: true)
        let session = try origin.session()
        defer { session.close() }
        #expect(session.isLive && session.audioRendition != nil)
        // The first loads list 5-9; the video starts three target durations back, at segment 7.
        let video = try #require(try session.segment(at: session.startIndex))
        #expect(video.segment.url.hasSuffix("/v0-7.ts"))
        let start = session.audioStartIndex
        let audio = try #require(try session.audioSegment(reading: start))
        #expect(audio.url.hasSuffix("/a-7.ts"), "\(audio.url)")
        #expect(audio.sequence == (dated ? 507 : 7))
        #expect(abs(audio.start) < 1e-9, "at the play's time 0 as the video: \(audio.start)")
        #expect(session.audioIndex(containing: 2.5) == start + 1)
        // A seek 2.5 s into the play: the audio stream starts over at the segment after the first, at 2 s.
        let stream = SegmentedStream(audioOf: session)
        #expect(try stream.reposition(toSeconds: 2.5) == 2)
        #expect(session.withState { $0.audio?.readerIndex } == start + 1)
    }

    @Test(
        "an audio playlist that lags the video's: its reader waits for the reload that lists the matching segment",
        arguments: [false, true])
    func lagging(dated: Bool) async throws {
        let origin = try LiveOrigin(dated: dated, audio: true, audioLag: 3)
        let session = try origin.session()
        defer { session.close() }
        // The audio lists 2-6, the video 5-9 and starts at 7: the audio reader waits for the next reload.
        let pending = PendingRead(session, session.audioStartIndex)
        try await Task.sleep(for: .milliseconds(50))
        #expect(pending.result == nil, "it waits")
        try origin.advance(to: origin.now + 2)
        #expect(session.reloadLiveAudioOnce())
        try await waitUntil("the audio reader's segment", timeout: .seconds(30)) { pending.result != nil }
        let audio = try #require(try pending.result?.get())
        #expect(audio.url.hasSuffix("/a-7.ts"), "\(audio.url)")
        #expect(abs(audio.start) < 1e-9, "\(audio.start)")
    }

    @Test("3000 reloads: each audio segment is the video's at the same place, times alike; the window stays bounded")
    func longPlay() throws {
        let origin = try LiveOrigin(dated: true, audio: true)
        let session = try origin.session()
        defer { session.close() }
        var video = session.startIndex
        var audio = session.audioStartIndex
        let videoOrigin = try #require(try session.segment(at: video)).segment.start
        let bound = StreamSession.liveSegmentsKeptBehind + origin.window + 1
        var most = (listed: 0, records: 0)
        var mismatched: [String] = []
        for _ in 0..<3000 {
            try origin.advance(to: origin.now + 2)
            #expect(session.reloadLiveOnce(), "the video's reloads go on")
            #expect(session.reloadLiveAudioOnce(), "the audio's reloads go on")
            video += 1
            audio += 1
            let shown = try #require(try session.segment(at: video, reading: true)).segment
            session.readerEntered(video)
            let heard = try #require(try session.audioSegment(reading: audio))
            session.audioReaderEntered(audio)
            session.withState { _ = $0.audio?.downloaded.insert(audio + 1) }
            let number = shown.url.split(separator: "-").last ?? ""
            if !heard.url.hasSuffix("a-\(number)") || abs(heard.start - (shown.start - videoOrigin)) > 1e-6 {
                mismatched.append("\(shown.url) \(shown.start) / \(heard.url) \(heard.start)")
            }
            let counts = session.retainedAudioCounts
            most = (max(most.listed, counts.listed), max(most.records, counts.records))
        }
        #expect(mismatched.isEmpty, "\(mismatched.prefix(3))")
        #expect(most.listed <= bound, "audio segments listed at most \(most.listed), bound \(bound)")
        // Exactly: the 6 behind the audio reader's, its own, and the two the origin lists after it.
        #expect(most.listed == StreamSession.liveSegmentsKeptBehind + 3, "\(most.listed)")
        #expect(most.records <= 2 * bound, "audio records at most \(most.records)")
        let last = try #require(session.audioSegment(at: audio))
        #expect(last.url.hasSuffix("/a-\(7 + 3000).ts") && abs(last.start - 6000) < 1e-6, "\(last)")
        #expect(session.audioIndex(containing: 5999) == audio - 1, "times from the play's start")
    }

    @Test("an audio reader that stops: at most 256 segments kept; reading a dropped one is a typed error naming it")
    func pausedAudioReader() throws {
        let origin = try LiveOrigin(audio: true)
        let session = try origin.session()
        defer { session.close() }
        let start = session.audioStartIndex
        _ = try session.audioSegment(reading: start)
        session.audioReaderEntered(start)
        for index in 0..<400 {
            try origin.advance(to: origin.now + 2)
            #expect(session.reloadLiveAudioOnce())
            #expect(session.retainedAudioCounts.listed == min(5 + index + 1, StreamSession.liveSegmentLimit))
        }
        do throws(MediaError) {
            _ = try session.audioSegment(reading: start + 1)
            Issue.record("a dropped segment was read")
        } catch {
            #expect(error.kind == .readFailed)
            #expect(error.url == origin.server.url("a.m3u8"))
            #expect(error.reason.contains("fell behind the live window"), "\(error.reason)")
        }
        // Indexes of the first load: index 0 is sequence 5, so the newest, 409, is index 404.
        #expect(try session.audioSegment(reading: 404)?.url.hasSuffix("/a-409.ts") == true)
    }

    @Test(
        "an audio playlist that stops updating, or goes missing, ends the audio reads with a typed error naming it",
        arguments: [false, true])
    func stalled(missing: Bool) async throws {
        let origin = try LiveOrigin(audio: true)
        let session = try origin.session()
        defer { session.close() }
        origin.audioFrozen = true
        if missing { try FileManager.default.removeItem(atPath: origin.root + "/a.m3u8") }
        // The reader waits past the last segment listed (index 4: sequence 9) while the video goes on.
        let pending = PendingRead(session, 5)
        var reloads = 0
        while session.reloadLiveAudioOnce() {
            reloads += 1
            try origin.advance(to: origin.now + 2)
            #expect(session.reloadLiveOnce(), "the video's reloads go on")
            #expect(reloads < 10, "given up on")
            if reloads >= 10 { break }
        }
        #expect(reloads == StreamSession.maximumStaleReloads - 1, "\(reloads) reloads before the last")
        try await waitUntil("the waiting audio reader's error", timeout: .seconds(30)) { pending.result != nil }
        guard case .failure(let error) = pending.result else {
            Issue.record("no error: \(String(describing: pending.result))")
            return
        }
        #expect(error.url == origin.server.url("a.m3u8"), "\(error)")
        if missing {
            #expect(error.kind == .httpStatus && error.code == 404, "\(error)")
        } else {
            #expect(error.kind == .timedOut && error.reason.contains("audio rendition"), "\(error)")
        }
        #expect(!session.reloadLiveAudioOnce() && !session.reloadLiveAudio(), "no more reloads")
    }
}

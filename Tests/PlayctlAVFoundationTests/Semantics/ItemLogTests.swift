import AVFoundation
import Playback
import PlaybackTesting
import Testing

@testable import PlayctlAVFoundation

/// `accessLog()` and `errorLog()`, written from the engine's session summaries and the item's failures.
@Suite("AVPlayerItem access and error logs")
struct ItemLogTests {
    @Test("a clip played to its end: one access event with the session's figures; no error log")
    func accessLogOfAPlayedClip() async throws {
        let delivered = try await PlayctlAVFoundation.withConfiguration(.init(clock: .untimed, decodesAudio: false)) {
            let item = AVPlayerItem(url: Clips.url("a.mp4"))
            #expect(item.accessLog() == nil, "no session yet")
            let player = AVPlayer(playerItem: item)
            defer { player.playctlPlayer.invalidate() }
            player.play()
            try await waitUntil("an access log entry after the clip ended") {
                item.accessLog() != nil
            }
            return item
        }
        let log = try #require(delivered.accessLog())
        #expect(log.events.count == 1)
        let event = try #require(log.events.first)
        #expect(event.uri == MediaFixtures.path("a.mp4") && event.playbackType == "FILE")
        #expect(event.numberOfStalls == 0 && event.numberOfBytesTransferred == 0 && event.observedBitrate < 0)
        #expect(abs(event.durationWatched - 6) < 0.1, "\(event.durationWatched)")
        #expect(event.numberOfMediaRequests == 1 && event.playbackSessionID?.isEmpty == false)
        let text = String(decoding: try #require(log.extendedLogData()), as: UTF8.self)
        #expect(text.hasPrefix("#Version: 1.0\n") && text.contains("#Fields:") && text.contains("a.mp4"))
        #expect(delivered.errorLog() == nil)
    }

    @Test("a failing resource loader: the error log holds the failure with its kind and reason")
    func errorLogOfAFailure() async throws {
        let outcome = try await ResourceLoaderTests.play(try FailingDelegate(clip: "a.mp4"))
        try await waitUntil("the error log entry") { outcome.item.errorLog() != nil }
        let event = try #require(outcome.item.errorLog()?.events.first)
        #expect(event.uri == "playctl-test://clips/a.mp4")
        #expect(event.errorDomain == "playctl.MediaError.readFailed", "\(event.errorDomain)")
        #expect(event.errorComment?.contains("the disk is on fire") == true, "\(event.errorComment ?? "")")
    }

    @Test("each log keeps its newest events up to its bound; a session's later summary replaces its earlier one")
    func logsAreBounded() {
        func summary(_ session: String, stalls: Int) -> PlaybackSummaryEvent {
            PlaybackSummaryEvent(
                context: MetricContext(
                    date: Date(timeIntervalSince1970: 0), mediaTime: .zero, sessionID: session, hostTime: 0, item: "x"),
                stallCount: stalls, seekCount: 0, startupTime: 0, stallRecoveryTime: 0, framesRendered: 0,
                framesDropped: 0, playbackDuration: 1)
        }
        var logs = ItemLogs()
        for index in 0..<5 {
            logs.record(
                AVPlayerItemAccessLogEvent(summary: summary("s\(index)", stalls: 0), uri: "u", isLocal: true), limit: 3)
        }
        logs.record(AVPlayerItemAccessLogEvent(summary: summary("s4", stalls: 2), uri: "u", isLocal: true), limit: 3)
        #expect(logs.access.map { $0.playbackSessionID } == ["s2", "s3", "s4"])
        #expect(logs.access.last?.numberOfStalls == 2)
        for index in 0..<5 {
            logs.record(
                AVPlayerItemErrorLogEvent(date: Date(), uri: "u", sessionID: nil, error: nil, message: "e\(index)"),
                limit: 2)
        }
        #expect(logs.errors.map(\.errorComment) == ["e3", "e4"])
    }
}

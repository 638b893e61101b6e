import AVFoundation
import Foundation
import Locking
import PlaybackTesting
import Testing

@testable import Playback
@testable import PlayctlAVFoundation

/// `AVPlayerItemAccessLogEvent.numberOfDroppedVideoFrames` on the host clock, when frames were really dropped: in
/// the isolated realtime group of scripts/test-groups.sh (it needs real time).
@Suite("The access log counts the frames dropped on the host clock")
struct AccessLogDropTests {
    @Test("an engine held 100 ms every 10th frame: the access log's dropped frames are those the sink never got")
    func droppedFramesInTheAccessLog() async throws {
        let frames = try MediaFixtures.referenceFrames("b.mp4").count
        let seen = Locked(0)
        let dropEvents = Locked(0)
        let (item, statistics) = try await PlayctlAVFoundation.withConfiguration(
            .init(clock: .host, decodesAudio: false)
        ) {
            let item = AVPlayerItem(url: Clips.url("b.mp4"))
            let player = AVPlayer(playerItem: item)
            let engine = player.playctlPlayer
            defer { engine.invalidate() }
            engine.observeEvents { event in
                if case .framesDropped(let times) = event.kind { dropEvents.withLock { $0 += times.count } }
            }
            // As a starved CPU would: every 10th frame the engine is kept from running for 100 ms (2.5 intervals
            // of b.mp4's 25 fps), so that a frame due meanwhile is superseded by the next before it is shown.
            engine.add(
                VideoSink { [weak engine] _ in
                    guard
                        seen.withLock({
                            $0 += 1
                            return $0
                        }) % 10 == 0, let engine
                    else { return }
                    engine.core.condition.lock()
                    Thread.sleep(forTimeInterval: 0.1)
                    engine.core.condition.unlock()
                })
            player.play()
            try await waitUntil("b.mp4's access log entry after its end") {
                item.accessLog() != nil
            }
            await engine.callbacksDelivered()
            return (item, engine.statistics)
        }
        let event = try #require(item.accessLog()?.events.first)
        let dropped = frames - seen.withLock { $0 }
        #expect(dropped > 0 && statistics.frameCallbacksSkipped == 0, "\(statistics)")
        let reported = (log: event.numberOfDroppedVideoFrames, events: dropEvents.withLock { $0 })
        #expect(
            reported.log == dropped && statistics.framesDropped == dropped && reported.events == dropped,
            "reported \(reported), statistics \(statistics), the sink missed \(dropped) of \(frames)")
        // The extended log's line for the session ends with its c-frames-dropped field.
        let text = String(decoding: try #require(item.accessLog()?.extendedLogData()), as: UTF8.self)
        let line = try #require(text.split(separator: "\n").last { !$0.hasPrefix("#") }, "\(text)")
        #expect(line.split(separator: " ").last.map(String.init) == "\(dropped)", "\(text)")
    }
}

import Foundation
import Locking
import MediaIO
import PlaybackTesting
import Testing

@testable import Playback

@Suite("A stream whose frame size changes mid-stream")
struct PresentationSizeTests {
    @Test("a sink gets every frame at its own size, bit-exact; one event and presentationSize follow the change")
    func sizeChange() async throws {
        let clock = ManualClock()
        let item = PlayerItem(url: TrackClips.path(TrackClips.sizeChange))
        let frames = Locked<[(width: Int, height: Int, md5: String)]>([])
        let player = Player(item: item, clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        player.add(VideoSink { frame in frames.withLock { $0.append((frame.width, frame.height, frame.md5())) } })
        let output = VideoOutput(pixelFormat: .bgra)
        player.add(output)
        let recorder = TraceRecorder(player)
        await clock.advance(by: .zero)
        #expect(item.presentationSize.map { [$0.width, $0.height] } == [320, 240])
        player.play()
        for _ in 0..<9 { await clock.advance(bySeconds: 0.1) }  // 0.9 s: the last small frame
        let small = try #require(try output.copyFrame(forItemTime: player.currentTime()))
        #expect((small.width, small.height) == (320, 240))
        for _ in 0..<16 { await clock.advance(bySeconds: 0.1) }
        await player.callbacksDelivered()
        let large = try #require(try output.copyFrame(forItemTime: player.currentTime()))
        #expect((large.width, large.height) == (640, 360))
        #expect(large.bytes.count == 640 * 360 * 4)
        #expect(item.presentationSize.map { [$0.width, $0.height] } == [640, 360])
        let received = frames.withLock { $0 }
        let reference = try MediaFixtures.referenceMD5s(TrackClips.sizeChange)
        #expect(received.map(\.md5) == reference)
        #expect(received.prefix(25).allSatisfy { $0.width == 320 && $0.height == 240 })
        #expect(received.dropFirst(25).allSatisfy { $0.width == 640 && $0.height == 360 })
        let trace = await recorder.snapshot()
        let changes = trace.filter { $0.contains("presentationSize") }
        #expect(changes.count == 1 && changes.first?.hasSuffix("presentationSize 640x360") == true, "\(trace)")
        #expect(changes.first?.contains("t=1.000") == true, "\(changes)")
        #expect(trace.contains { $0.contains("didPlayToEnd") })
    }

    @Test("an exact seek into the larger part lands on ffmpeg's frame at its size")
    func seekAcrossTheChange() async throws {
        let clock = ManualClock()
        let item = PlayerItem(url: TrackClips.path(TrackClips.sizeChange))
        let player = Player(item: item, clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let layer = PlayerLayer(player: player)
        await clock.advance(by: .zero)
        let reference = try MediaFixtures.referenceMD5s(TrackClips.sizeChange)
        for (seconds, index) in [(1.5, 37), (0.5, 12), (1.92, 48)] {
            #expect(await player.seek(to: MediaTime(seconds: seconds), toleranceBefore: .zero, toleranceAfter: .zero))
            await player.callbacksDelivered()
            let frame = try #require(layer.currentFrame)
            #expect(frame.md5() == reference[index], "at \(seconds)")
            #expect(frame.width == (index < 25 ? 320 : 640))
        }
        #expect(item.presentationSize.map { [$0.width, $0.height] } == [640, 360])
    }
}

extension PresentationSizeTests {
    @Test("the decoded-frame queue stays within its byte budget when the pictures grow")
    func queueBound() async throws {
        let reader = try VideoFrameReader(url: TrackClips.path(TrackClips.sizeChange))
        // 2 MB: 18 pictures of 320x240, 6 of 640x360.
        let pipeline = VideoPipeline(reader: reader, byteBudget: 2 << 20) {}
        defer { pipeline.stop() }
        pipeline.start(name: "queue-bound")
        var counts: [(small: Int, large: Int)] = []
        var taken = 0
        while taken < 50 {
            try await waitUntil("the pipeline to settle") { pipeline.snapshot().isSettled }
            let (frames, after) = pipeline.takeFrames(dueBy: .positiveInfinity, atLeastOne: true)
            guard !frames.isEmpty else { break }
            counts.append((frames.filter { $0.width == 320 }.count, frames.filter { $0.width == 640 }.count))
            taken += frames.count
            if after.ended && after.count == 0 { break }
        }
        #expect(taken == 50)
        // Each batch is what the queue held: within the budget at the size of the pictures decoded last.
        #expect(counts.allSatisfy { $0.small <= 18 && $0.large <= 6 }, "\(counts)")
        #expect(counts.contains { $0.small == 0 && $0.large == 6 }, "full at the larger size: \(counts)")
    }
}

import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

@Suite("Playback under the manual clock")
struct PlaybackTraceTests {
    @Test("start and play to the end with actionAtItemEnd .pause")
    func playToEnd() async throws {
        let clock = ManualClock()
        let item = PlayerItem(url: MediaFixtures.path("b.mp4"))
        let player = Player(item: item, clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let recorder = TraceRecorder(player)
        player.play()
        await clock.advance(by: .zero)
        for _ in 0..<10 { await clock.advance(bySeconds: 0.5) }
        let trace = await recorder.snapshot()
        print(trace.joined(separator: "\n"))
        #expect(player.statistics.framesRendered == 100)
        #expect(player.timeControlStatus == .paused)
    }
}

extension PlaybackTraceTests {
    @Test("seek while playing, superseded seeks, and the landing frame equals ffmpeg's")
    func seeks() async throws {
        let clock = ManualClock()
        let item = PlayerItem(url: MediaFixtures.path("a.mp4"))
        let player = Player(item: item, clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let layer = PlayerLayer(player: player)
        let recorder = TraceRecorder(player)
        player.play()
        await clock.advance(bySeconds: 1)
        // The first seek is asked for synchronously, so the second always supersedes it.
        let first = FirstResult()
        player.seek(to: MediaTime(seconds: 2), toleranceBefore: .zero, toleranceAfter: .zero) { first.set($0) }
        let second = await player.seek(to: MediaTime(seconds: 3.5), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(second)
        try await waitUntil("the superseded seek's completion") { first.value != nil }
        #expect(first.value == false, "superseded")
        let reference = try MediaFixtures.referenceMD5s("a.mp4")
        #expect(layer.currentFrame?.md5() == reference[105])
        #expect(player.currentTime() == MediaTime(seconds: 3.5))
        await clock.advance(bySeconds: 0.5)
        #expect(player.currentTime() == MediaTime(seconds: 4.0))
        #expect(layer.currentFrame?.md5() == reference[120])
    }
}

/// The result a completion handler delivered.
final class FirstResult: Sendable {
    private let state = Locked<Bool?>(nil)
    func set(_ value: Bool) { state.withLock { $0 = value } }
    var value: Bool? { state.withLock { $0 } }
}

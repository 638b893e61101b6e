import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// Faults while playing, under the manual clock: a source that fails after N bytes, one that stalls and resumes,
/// a file deleted or truncated under the player. Each gives the right state, error and events; playback recovers
/// where it can. (Decoder errors mid-stream: the bit-flipped files of the broken-media corpus.)
@Suite("Faults while playing")
struct FaultTests {
    /// a.mp4: 6 s, 180 frames, about 390 kB with its index at the start.
    static let clip = MediaFixtures.path("a.mp4")

    static func advance(_ clock: ManualClock, seconds: Double, step: Double = 0.1) async {
        for _ in 0..<Int((seconds / step).rounded()) { await clock.advance(bySeconds: step) }
    }

    /// A player playing `item` under a manual clock, its events recorded, `seconds` into playback.
    struct Playing {
        let clock: ManualClock
        let player: Player
        let recorder: TraceRecorder
        var parts: (ManualClock, Player, TraceRecorder) { (clock, player, recorder) }
    }

    static func play(_ item: PlayerItem, clock: ManualClock = ManualClock(), for seconds: Double) async -> Playing {
        let player = Player(item: item, clock: .manual(clock), audio: true)
        let recorder = TraceRecorder(player)
        player.play()
        await advance(clock, seconds: seconds)
        return Playing(clock: clock, player: player, recorder: recorder)
    }

    /// A temporary copy of a.mp4 that a test may delete or truncate.
    static func scratchCopy() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fault-\(UUID().uuidString).mp4").path
        try FileManager.default.copyItem(atPath: clip, toPath: path)
        return path
    }

    @Test(
        "a source that fails mid-stream: frames up to the failure, then failedToPlayToEnd and a failed item naming the file; a new item plays"
    )
    func sourceFailsMidStream() async throws {
        let item = PlayerItem(url: Self.clip) { request throws(MediaError) in
            try FailingByteSource(path: request.url, failingAfter: 200_000)
        }
        let (clock, player, recorder) = await Self.play(item, for: 7).parts
        defer { player.invalidate() }
        let trace = await recorder.snapshot()
        let failed = try #require(trace.firstIndex { $0.contains("failedToPlayToEnd") }, "\(trace)")
        #expect(!trace.contains { $0.contains("didPlayToEnd") }, "\(trace)")
        #expect(trace[failed].contains("a.mp4") && trace[failed].contains("connection dropped"), "\(trace[failed])")
        #expect(trace.dropFirst(failed).contains { $0.contains("item.status a.mp4 failed") }, "\(trace)")
        #expect(item.status == .failed)
        #expect(item.error?.kind == .readFailed, "\(String(describing: item.error))")
        let shown = player.statistics.framesRendered
        #expect(shown > 10 && shown < 180, "the frames before the failure are shown: \(shown)")
        // An app recovers by giving the player a new item: it plays to its end.
        let fresh = PlayerItem(url: Self.clip)
        player.replaceCurrentItem(with: fresh)
        player.play()
        await Self.advance(clock, seconds: 7)
        #expect(fresh.status == .readyToPlay)
        #expect(await recorder.snapshot().last { $0.contains("didPlayToEnd") } != nil)
    }

    @Test(
        "a source that fails while the item loads: the item fails with a typed error, the player waits with no item to play"
    )
    func sourceFailsWhileLoading() async throws {
        let clock = ManualClock()
        let item = PlayerItem(url: Self.clip) { request throws(MediaError) in
            try FailingByteSource(path: request.url, failingAfter: 1_000)
        }
        let player = Player(item: item, clock: .manual(clock), audio: true)
        defer { player.invalidate() }
        player.play()
        await Self.advance(clock, seconds: 0.5)
        #expect(item.status == .failed)
        let error = try #require(item.error)
        #expect(error.description.contains("a.mp4"), "\(error)")
        #expect(player.statistics.framesRendered == 0)
        #expect(player.timeControlStatus != .playing)
    }

    @Test("a source that stalls and resumes: stalled, waiting toMinimizeStalls with time held, then playing to the end")
    func stallsAndResumes() async throws {
        let clock = ManualClock()
        let throttle = MediaThrottle(bytesPerSecond: 10_000_000, clock: clock)
        let (_, player, recorder) = await Self.play(
            PlayerItem(url: Self.clip, throttle: throttle), clock: clock, for: 1
        ).parts
        defer { player.invalidate() }
        throttle.pause()
        await Self.advance(clock, seconds: 3)
        let held = player.currentTime().seconds
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(player.reasonForWaitingToPlay == .toMinimizeStalls)
        #expect(held < 3, "time waits while no bytes come: \(held)")
        await Self.advance(clock, seconds: 1)
        #expect(player.currentTime().seconds == held)
        throttle.resume()
        await Self.advance(clock, seconds: 7)
        let trace = await recorder.snapshot()
        let stalled = try #require(trace.firstIndex { $0.hasSuffix(" stalled") }, "\(trace)")
        let playing = try #require(trace.lastIndex { $0.hasSuffix("timeControlStatus playing") })
        let ended = try #require(trace.firstIndex { $0.contains("didPlayToEnd") })
        #expect(stalled < playing && playing < ended, "\(trace)")
        #expect(player.statistics.framesRendered == 180)
    }

    @Test("a seek asked for while the source is paused completes once bytes come again")
    func seekWhileSourcePaused() async throws {
        let clock = ManualClock()
        let throttle = MediaThrottle(bytesPerSecond: 10_000_000, clock: clock)
        let player = await Self.play(PlayerItem(url: Self.clip, throttle: throttle), clock: clock, for: 1).player
        defer { player.invalidate() }
        throttle.pause()
        let done = Completion()
        player.seek(to: MediaTime(seconds: 4), toleranceBefore: .zero, toleranceAfter: .zero) { done.set($0) }
        await Self.advance(clock, seconds: 1)
        #expect(done.value == nil, "no bytes, no landing yet")
        #expect(player.currentTime().seconds == 4, "the current time is the target from the request on")
        throttle.resume()
        await Self.advance(clock, seconds: 1)
        #expect(try await done.wait() == true)
        #expect(player.currentTime().seconds >= 4)
    }

    @Test("a file deleted while playing plays on to its end, and seeks still land (the open file stays readable)")
    func deletedWhilePlaying() async throws {
        let path = try Self.scratchCopy()
        let item = PlayerItem(url: path)
        let (clock, player, recorder) = await Self.play(item, for: 1).parts
        defer { player.invalidate() }
        try FileManager.default.removeItem(atPath: path)
        #expect(!FileManager.default.fileExists(atPath: path))
        let done = Completion()
        player.seek(to: MediaTime(seconds: 0.5), toleranceBefore: .zero, toleranceAfter: .zero) { done.set($0) }
        await Self.advance(clock, seconds: 7)
        #expect(try await done.wait() == true)
        #expect(item.status == .readyToPlay)
        #expect(await recorder.snapshot().contains { $0.contains("didPlayToEnd") })
    }

    @Test("a file truncated while playing ends early or fails with a typed error, and never hangs")
    func truncatedWhilePlaying() async throws {
        let path = try Self.scratchCopy()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let item = PlayerItem(url: path)
        let (clock, player, recorder) = await Self.play(item, for: 1).parts
        defer { player.invalidate() }
        #expect(truncate(path, 150_000) == 0)
        await Self.advance(clock, seconds: 7)
        let trace = await recorder.snapshot()
        let ends = trace.filter { $0.contains("didPlayToEnd") || $0.contains("failedToPlayToEnd") }
        #expect(ends.count == 1, "exactly one end: \(trace)")
        if trace.contains(where: { $0.contains("failedToPlayToEnd") }) {
            #expect(item.status == .failed && item.error?.description.contains(path) == true)
        }
        #expect(player.statistics.framesRendered < 180, "the frames past the cut are gone")
        #expect(player.timeControlStatus == .paused)
    }
}

/// A seek's completion, recorded from the engine thread.
final class Completion: Sendable {
    private let state = Locked<Bool?>(nil)
    func set(_ finished: Bool) { state.withLock { $0 = finished } }
    var value: Bool? { state.withLock { $0 } }
    /// The completion, once its handler ran (it runs on a background queue); throws if it does not (see
    /// `waitUntil`).
    func wait() async throws -> Bool? {
        try await waitUntil("the seek's completion handler") { value != nil }
        return value
    }
}

import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// Things due at the same virtual instant run in one documented order (docs/playback.md, "Ties in virtual time"):
/// the observers due at an item's end instant fire, and what they do takes effect, before the end is reported; a
/// `readyToPlay` observer's seek is applied before a frame is shown.
@Suite("Ties in virtual time")
struct VirtualTimeTieTests {
    /// b.mp4 (4 s) with a boundary observer at its end that seeks to 1 s the first time it fires: a trace.
    private static func seekAtEnd(clock mode: (ManualClock?) -> ClockMode) async throws -> [String] {
        let manual = ManualClock()
        let clock = mode(manual)
        // The item comes after play(): given at init its load could finish before play() on a loaded machine
        // (readyToPlay, then the rate) or after it (the rate, then readyToPlay), two traces (CI saw both).
        let player = Player(clock: clock, audio: false)
        defer { player.invalidate() }
        let recorder = TraceRecorder(player)
        let fired = Locked(0)
        _ = player.addBoundaryTimeObserver(forTimes: [MediaTime(seconds: 4)]) { [weak player] _ in
            let count = fired.withLock {
                $0 += 1
                return $0
            }
            guard count == 1 else { return }
            player?.seek(to: MediaTime(seconds: 1), toleranceBefore: .zero, toleranceAfter: .zero) { _ in }
        }
        let ended = AsyncStream.makeStream(of: Void.self)
        player.observeEvents { event in
            if case .didPlayToEnd = event.kind { ended.continuation.yield() }
        }
        player.play()
        player.replaceCurrentItem(with: PlayerItem(url: MediaFixtures.path("b.mp4")))
        if case .manual = clock {
            await manual.advance(bySeconds: 8)
        } else {
            _ = try await firstElement(of: ended.stream, "b.mp4 to play to its end")
        }
        await player.callbacksDelivered()
        return await recorder.snapshot()
    }

    @Test("manual clock: a seek asked for at the end instant is applied; the end comes after it, the same 20 times")
    func seekAtEndManual() async throws {
        let first = try await Self.seekAtEnd { .manual($0!) }
        let end = try #require(first.firstIndex(of: "[7.000 t=4.000] didPlayToEnd b.mp4"), "\(first)")
        let boundary = try #require(first.firstIndex(of: "[4.000 t=4.000] boundary 4.000"), "\(first)")
        let requested = try #require(first.firstIndex(of: "[4.000 t=1.000] seek#1 requested 1.000 exact"))
        #expect(boundary < requested && requested < end)
        #expect(
            first.contains("[4.000 t=1.000] seek#1 completed true at 1.000"), "the seek lands at the instant: \(first)")
        #expect(first.filter { $0.contains("didPlayToEnd") }.count == 1, "no end at 4.000: \(first)")
        #expect(first.firstIndex(of: "[7.000 t=4.000] boundary 4.000")! < end, "the observer fires before the end")
        for _ in 0..<19 { #expect(try await Self.seekAtEnd { .manual($0!) } == first) }
    }

    @Test("untimed clock: the same tie, the same order, the same trace 20 times")
    func seekAtEndUntimed() async throws {
        let first = try await Self.seekAtEnd { _ in .untimed }
        let requested = try #require(first.firstIndex(of: "[4.000 t=1.000] seek#1 requested 1.000 exact"), "\(first)")
        let end = try #require(first.firstIndex(of: "[7.000 t=4.000] didPlayToEnd b.mp4"), "\(first)")
        #expect(first.firstIndex(of: "[4.000 t=4.000] boundary 4.000")! < requested && requested < end)
        #expect(first.filter { $0.contains("didPlayToEnd") }.count == 1, "\(first)")
        for _ in 0..<19 {
            let next = try await Self.seekAtEnd { _ in .untimed }
            #expect(next == first, "\(next.difference(from: first))")
        }
    }

    /// a.mp4 under the untimed clock, seeking to 2 s from a `readyToPlay` event observer, paused: a trace.
    private static func seekWhenReady() async throws -> [String] {
        let player = Player(clock: .untimed, audio: true)
        defer { player.invalidate() }
        let recorder = TraceRecorder(player)
        let landed = AsyncStream.makeStream(of: Void.self)
        player.observeEvents { [weak player] event in
            guard case .itemStatus(.readyToPlay, _, _) = event.kind else { return }
            player?.seek(to: MediaTime(seconds: 2), toleranceBefore: .zero, toleranceAfter: .zero) { _ in
                landed.continuation.yield()
            }
        }
        player.replaceCurrentItem(with: PlayerItem(url: MediaFixtures.path("a.mp4")))
        _ = try await firstElement(of: landed.stream, "the seek to 2 s asked for on readyToPlay to land")
        await player.callbacksDelivered()
        return await recorder.snapshot()
    }

    @Test("untimed clock: a seek asked for on readyToPlay lands before any frame is shown, every run")
    func seekWhenReadyUntimed() async throws {
        let first = try await Self.seekWhenReady()
        let jumped = try #require(first.firstIndex(of: "[0.000 t=2.000] timeJumped"), "\(first)")
        let frame = try #require(first.firstIndex { $0.contains("firstFrame") }, "\(first)")
        #expect(jumped < frame, "\(first)")
        for _ in 0..<9 { #expect(try await Self.seekWhenReady() == first) }
    }
}

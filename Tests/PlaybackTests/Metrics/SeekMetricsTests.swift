import Foundation
import Locking
import MediaIO
import PlaybackTesting
import Testing

@testable import Playback

@Suite("Seek metrics: request/completion pairs under the manual clock", .timeLimit(.minutes(1)))
struct SeekMetricsTests {
    @Test("50 seeks in a burst: one finishes, 49 are superseded, each request paired with one completion, in order")
    func burst() async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("a.mp4")), clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let stream = player.allMetrics()
        let trace = MetricsTrace(player)
        let handled = Locked<[Bool]>([])
        // The burst is asked for from a boundary observer, on the engine thread: only that thread applies landings,
        // so none can land before the last request.
        _ = player.addBoundaryTimeObserver(forTimes: [MediaTime(seconds: 1)]) { [weak player] _ in
            for index in 0..<50 {
                player?.seek(
                    to: MediaTime(value: Int64(400 + index * 2), timescale: 100), toleranceBefore: .zero,
                    toleranceAfter: .zero
                ) { finished in handled.withLock { $0.append(finished) } }
            }
        }
        player.play()
        await clock.advance(bySeconds: 1)
        await clock.advance(by: .zero)
        player.invalidate()
        let metrics = await collect(stream)
        let seekMetrics = metrics.filter { $0 is SeekEvent || $0 is SeekDidCompleteEvent }
        let traced = trace.metrics.filter { $0 is SeekEvent || $0 is SeekDidCompleteEvent }
        #expect(seekMetrics.map(\.description) == traced.map(\.description), "the stream has what was sent")

        let requests = metrics.compactMap { $0 as? SeekEvent }
        let completions = metrics.compactMap { $0 as? SeekDidCompleteEvent }
        #expect(requests.count == 50)
        #expect(completions.count == 50)
        #expect(requests.map(\.id) == completions.map(\.id), "completions in request order")
        #expect(Set(requests.map(\.id)).count == 50)
        #expect(requests.allSatisfy { $0.origin == .api && $0.tolerance == .exact })
        #expect(completions.filter(\.finished).map(\.id) == [requests.last!.id])
        #expect(completions.filter { !$0.finished }.allSatisfy { $0.landedTime == nil })
        let last = try #require(completions.last)
        #expect(last.landedTime == MediaTime(value: 498, timescale: 100))
        try await waitUntil("50 seeks handled") { handled.withLock { $0.count } >= 50 }
        #expect(handled.withLock { $0.filter { $0 }.count } == 1, "one completion handler gets true")
        #expect(last.framesDecoded > 0)
        // The engine reports a request, then the completion (false) of the seek it supersedes; the last one lands.
        var expected: [String] = ["seek 1"]
        for id in 2...50 { expected += ["seek \(id)", "done \(id - 1)"] }
        expected.append("done 50")
        let offset = requests[0].id.rawValue - 1
        let order = seekMetrics.map { metric -> String in
            if let seek = metric as? SeekEvent { return "seek \(seek.id.rawValue - offset)" }
            return "done \((metric as! SeekDidCompleteEvent).id.rawValue - offset)"
        }
        #expect(order == expected)
        #expect(requests.allSatisfy { $0.sessionID == requests[0].sessionID })
    }

    @Test("a seek reports where it left from, where it landed, what it cost, and whether it was in the buffer")
    func fields() async throws {
        let clock = ManualClock()
        let item = PlayerItem(url: MediaFixtures.path("a.mp4"))
        let player = Player(item: item, clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let trace = MetricsTrace(player)
        await clock.advance(by: .zero)
        // Paused at 0: the first decoded frames wait in the queue.
        #expect(await player.seek(to: MediaTime(seconds: 0.2), toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(await player.seek(to: MediaTime(seconds: 3.5), toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(await player.seek(to: MediaTime(seconds: 2.5), exact: false, origin: .pictureInPictureSkip))
        let requests = trace.metrics(SeekEvent.self)
        let completions = trace.metrics(SeekDidCompleteEvent.self)
        try #require(requests.count == 3 && completions.count == 3)
        #expect(requests.map(\.requestedTime) == [0.2, 3.5, 2.5].map { MediaTime(seconds: $0) })
        #expect(requests.map(\.fromTime) == [0, 0.2, 3.5].map { MediaTime(seconds: $0) })
        #expect(requests.map(\.tolerance) == [.exact, .exact, .keyframe])
        #expect(requests.map(\.origin) == [.api, .api, .pictureInPictureSkip])
        #expect(completions.map(\.finished) == [true, true, true])
        #expect(completions.map(\.didSeekInBuffer) == [true, false, false])
        #expect(completions[0].landedTime == MediaTime(seconds: 0.2))
        #expect(completions[1].landedTime == MediaTime(seconds: 3.5))
        let keyframe = try #require(completions[2].landedTime)
        #expect(keyframe <= MediaTime(seconds: 2.5))
        #expect(completions[1].framesDiscarded > 0 && completions[1].framesDecoded > completions[1].framesDiscarded)
        #expect(completions.allSatisfy { $0.latency == 0 }, "no clock time passes under the manual clock")
        #expect(completions.allSatisfy { $0.item == "a.mp4" })
        let summary = player.metricsCollector.currentSummary()
        #expect(summary.seekCount == 3)
    }

    @Test("an item's seek stream sees only seeks, from the moment it subscribes")
    func itemStream() async throws {
        let clock = ManualClock()
        let item = PlayerItem(url: MediaFixtures.path("b.mp4"))
        let player = Player(item: item, clock: .manual(clock), audio: false)
        await clock.advance(by: .zero)
        _ = await player.seek(to: MediaTime(seconds: 1), toleranceBefore: .zero, toleranceAfter: .zero)
        let seeks = item.metrics(forType: SeekEvent.self)
        let completions = item.metrics(forType: SeekDidCompleteEvent.self)
        _ = await player.seek(to: MediaTime(seconds: 2), toleranceBefore: .zero, toleranceAfter: .zero)
        let seek = try await firstElement(of: seeks, "the seek metric")
        #expect(seek?.requestedTime == MediaTime(seconds: 2))
        #expect(seek?.id == SeekID(rawValue: 2))
        #expect(try await firstElement(of: completions, "the seek's completion metric")?.id == SeekID(rawValue: 2))
        player.invalidate()
    }
}

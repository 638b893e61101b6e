import Feed
import Foundation
import Locking
import PlaybackTesting
import Testing

/// The feed's memory budget on the host clock: over it, freed heap goes back first, then the feed trims, at most
/// once a second.
@Suite("Feed memory budget")
struct MemoryBudgetTests {
    @Test("a feed always over its budget trims the prepared player, at most once a second, and plays on")
    func overBudgetTrimsOncePerSecond() async throws {
        var configuration = FeedConfiguration()
        // Below zero, not 1 byte: the suite shares its process with others, whose memory comes and goes; after one
        // of them frees 100 MB the process may hold less than when this feed started (CI saw no trim at all then).
        configuration.memoryBudget = -(1 << 40)
        configuration.audio = false
        let entries = ["a.mp4", "b.mp4", "a.mp4", "b.mp4"].map { FeedEntry(url: MediaFixtures.path($0), kind: .video) }
        let feed = FeedController(entries: entries, configuration: configuration)
        defer { feed.invalidate() }
        let trims = Locked<[Double]>([])
        let frames = Locked(0)
        // Subscribed before the first scroll: the first trim may come at once.
        let events = feed.events()
        let task = Task {
            for await event in events {
                switch event.kind {
                case .trimmed: trims.withLock { $0.append(event.time) }
                case .firstFrame: frames.withLock { $0 += 1 }
                default: break
                }
            }
        }
        defer { task.cancel() }
        let started = ContinuousClock.now
        feed.scroll(to: 0)
        // At least 2.5 s and 1 s on the items (longer on a loaded machine: more rounds, still a second apart).
        try await Task.sleep(for: .seconds(2.5))
        feed.scroll(to: 1, speed: 1)
        try await Task.sleep(for: .seconds(1))
        // Both items show their frames, however long a loaded machine takes.
        try await waitUntil("both items' first frames") { frames.withLock { $0 } == 2 }
        let trimCount = feed.summary.trims
        let ran = (ContinuousClock.now - started) / .seconds(1)
        await feed.eventsDelivered()
        // The consumer task may run late beside other suites.
        try await waitUntil("the \(trimCount) trims of the summary in the events", interval: .milliseconds(20)) {
            trims.withLock { $0.count } >= trimCount
        }
        let times = trims.withLock { $0 }
        #expect(!times.isEmpty, "the prepared player was trimmed")
        // Trims of one round come together; rounds are a second apart at least.
        var rounds: [Double] = []
        for time in times where rounds.last.map({ time - $0 > 0.5 }) ?? true { rounds.append(time) }
        #expect(zip(rounds, rounds.dropFirst()).allSatisfy { $1 - $0 >= 0.95 }, "\(rounds)")
        // No more rounds than seconds the run lasted, plus the first (measured in the same run).
        #expect(Double(rounds.count) <= ran + 1, "\(rounds) in \(ran) s")
        #expect(trimCount <= times.count, "every trim counted was reported: \(times) \(feed.summary.trims)")
    }
}

import Feed
import Foundation
import Locking
import Playback
import PlaybackTesting
import Testing

@Suite("Player pool")
struct PlayerPoolTests {
    @Test("acquire takes free players; the next caller waits, and waiters are served in order")
    func waitersInOrder() async throws {
        let pool = PlayerPool(size: 2, clock: .untimed, audio: false)
        let first = try await pool.acquire()
        let second = try await pool.acquire()
        #expect(first !== second && pool.available == 0)
        let order = Locked<[Int]>([])
        // Each waiter is started once the one before it is in line, so "in order" is well defined (started all at
        // once, they could reach the line in any order, and the test waited for good on the first one made).
        var waiters: [Task<Player, any Error>] = []
        for n in 0..<3 {
            waiters.append(
                Task {
                    let player = try await pool.acquire()
                    order.withLock { $0.append(n) }
                    return player
                })
            try await waitUntil("waiter \(n) in line") { pool.waiting >= n + 1 }
        }
        pool.release(first)
        let a = try await waiters[0].value
        pool.release(second)
        let b = try await waiters[1].value
        pool.release(a)
        _ = try await waiters[2].value
        #expect(order.withLock { $0 } == [0, 1, 2])
        #expect(a === first && b === second)
        #expect(pool.statistics.waits == 3 && pool.statistics.acquisitions == 5)
    }

    @Test("tryAcquire(player) takes that player only while it is free, and counts as an acquisition")
    func acquireChosen() async throws {
        let pool = PlayerPool(size: 3, clock: .untimed, audio: false)
        let chosen = pool.players[2]
        #expect(pool.tryAcquire(chosen))
        #expect(!pool.tryAcquire(chosen), "out already")
        #expect(!pool.tryAcquire(Player(clock: .untimed, audio: false)), "not this pool's")
        #expect(pool.available == 2 && pool.statistics.acquisitions == 1)
        let next = try #require(pool.tryAcquire())
        #expect(next !== chosen)
        pool.release(chosen)
        #expect(pool.tryAcquire(chosen), "free again")
    }

    @Test("a waiter that is cancelled leaves the line; the player goes to the next")
    func cancelledWaiter() async throws {
        let pool = PlayerPool(size: 1, clock: .untimed, audio: false)
        let only = try await pool.acquire()
        let cancelled = Task { try await pool.acquire() }
        try await waitUntil("the first waiter in line") { pool.waiting >= 1 }
        let next = Task { try await pool.acquire() }
        try await waitUntil("the second waiter in line") { pool.waiting >= 2 }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        pool.release(only)
        #expect(try await next.value === only)
        pool.release(only)
        pool.release(only)
        #expect(pool.available == 1, "a second release is ignored")
    }

    @Test("many tasks acquiring and releasing at once: every player out at most once, all back at the end")
    func concurrency() async throws {
        let pool = PlayerPool(size: 3, clock: .untimed, audio: false)
        let out = Locked<Set<ObjectIdentifier>>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    let player = try await pool.acquire()
                    let fresh = out.withLock { $0.insert(ObjectIdentifier(player)).inserted }
                    #expect(fresh, "handed out twice")
                    await Task.yield()
                    out.withLock { _ = $0.remove(ObjectIdentifier(player)) }
                    pool.release(player)
                }
            }
            try await group.waitForAll()
        }
        #expect(pool.available == 3 && pool.waiting == 0)
    }

    @Test("a released player holds nothing of its item: no item, no decoding thread, no frame")
    func releaseFreesTheItem() async throws {
        let pool = PlayerPool(size: 2, clock: .untimed, audio: true)
        func decodingThreads() -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.filter { task in
                let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
                return name.hasPrefix("playctl.video") || name.hasPrefix("playctl.audio")
            }.count
        }
        let player = try await pool.acquire()
        let layer = PlayerLayer(player: player)
        /// The last frame shown, held weakly: once nothing holds it, it is gone.
        final class WeakFrame: @unchecked Sendable {
            weak var frame: VideoFrame?
        }
        let last = WeakFrame()
        player.add(VideoSink { frame in last.frame = frame })
        player.replaceCurrentItem(with: PlayerItem(url: MediaFixtures.path("a.mp4")))
        let events = player.events()
        player.play()
        _ = try await firstElement(of: events, "a.mp4 to play to its end") { $0.kind == .didPlayToEnd }
        #expect(layer.framesDisplayed == 180)
        layer.player = nil
        pool.release(player)
        await player.callbacksDelivered()
        #expect(player.currentItem == nil && player.rate == 0)
        try await waitUntil("its decoding threads to end (\(decodingThreads()) left)") { decodingThreads() == 0 }
        #expect(player.statistics.framesRendered == 180)
        #expect(last.frame == nil, "no decoded picture of the item is left alive")
    }
}

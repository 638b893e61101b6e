import Foundation
import PlaybackTesting
import Synchronization
import Testing

@testable import Playback

@Suite("EventBroadcaster")
struct EventBroadcasterTests {
    @Test("every subscriber sees the elements yielded after it subscribed, in order")
    func ordered() async {
        let broadcaster = EventBroadcaster<Int>()
        broadcaster.yield(0)
        let first = broadcaster.subscribe()
        let second = broadcaster.subscribe { $0 % 2 == 0 ? $0 : nil }
        for value in 1...6 { broadcaster.yield(value) }
        broadcaster.finish()
        var seen: [Int] = []
        for await value in first { seen.append(value) }
        var even: [Int] = []
        for await value in second { even.append(value) }
        #expect(seen == [1, 2, 3, 4, 5, 6])
        #expect(even == [2, 4, 6])
        var late: [Int] = []
        for await value in broadcaster.subscribe() { late.append(value) }
        #expect(late.isEmpty, "a subscriber after finish gets an empty stream")
    }

    @Test("a subscriber that never reads keeps only its newest elements and the drops are counted")
    func bounded() async {
        let broadcaster = EventBroadcaster<Int>(bufferLimit: 3)
        let stream = broadcaster.subscribe()
        for value in 1...10 { broadcaster.yield(value) }
        broadcaster.finish()
        var seen: [Int] = []
        for await value in stream { seen.append(value) }
        #expect(seen == [8, 9, 10])
        #expect(broadcaster.droppedCount == 7)
        #expect(broadcaster.peakBufferedCount == 3)
    }

    @Test("a dropped stream unsubscribes")
    func unsubscribes() async throws {
        let broadcaster = EventBroadcaster<Int>()
        let task = Task { for await _ in broadcaster.subscribe() {} }
        try await waitUntil("the stream to subscribe") { broadcaster.subscriberCount > 0 }
        task.cancel()
        await task.value
        #expect(broadcaster.subscriberCount == 0)
    }

    /// `Player.invalidate()` finishes the broadcaster while the engine thread may be yielding. (Under
    /// ThreadSanitizer this also checks the delivery lock: over an empty value it was reported as a race.)
    @Test("finishing while another thread yields ends every stream, after elements in order")
    func finishWhileYielding() async {
        for _ in 0..<50 {
            let broadcaster = EventBroadcaster<Int>(bufferLimit: 256)
            let stream = broadcaster.subscribe()
            let producer = Thread { for value in 0..<200 { broadcaster.yield(value) } }
            producer.start()
            broadcaster.finish()
            var received: [Int] = []
            for await value in stream { received.append(value) }
            #expect(received == Array(0..<received.count))
            #expect(broadcaster.isFinished && broadcaster.subscriberCount == 0)
        }
    }

    /// Cancelling a task that waits on a stream runs the stream's termination handler under the task's status lock;
    /// yielding to that stream resumes the task, which takes the same status lock. The broadcaster must never hold
    /// its own lock across a yield, or the two deadlock (found by `playctl-bench run --playback` (then `playctl bench`) hanging).
    @Test("cancelling iterating tasks while a thread yields never deadlocks")
    func cancelWhileYielding() async throws {
        let broadcaster = EventBroadcaster<Int>(bufferLimit: 8)
        let done = Atomic(false)
        let producer = Thread {
            var value = 0
            while !done.load(ordering: .relaxed) {
                broadcaster.yield(value)
                value += 1
                // Bursts with short rests: enough to meet the cancellations, without taking a core from the
                // timing-sensitive tests that run alongside.
                if value % 64 == 0 { usleep(50) }
            }
        }
        producer.start()
        defer { done.store(true, ordering: .relaxed) }
        let rounds = 500
        let finished = Atomic(0)
        let driver = Task.detached {
            for _ in 0..<rounds {
                let stream = broadcaster.subscribe()
                let receiving = Atomic(false)
                let task = Task {
                    var iterator = stream.makeAsyncIterator()
                    while await iterator.next() != nil { receiving.store(true, ordering: .relaxed) }
                }
                // Cancel only once the task is receiving: it is then suspended in `next()` or being resumed.
                while !receiving.load(ordering: .relaxed) { try? await Task.sleep(for: .microseconds(100)) }
                task.cancel()
                await task.value
                finished.add(1, ordering: .relaxed)
            }
        }
        // A deadlock never ends; a slow round ends eventually (the cooperative pool may be held for a long while
        // by other suites' blocking work, under the sanitizers especially): a generous deadline tells them apart.
        let deadline = Date().addingTimeInterval(300)
        while finished.load(ordering: .relaxed) < rounds && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(finished.load(ordering: .relaxed) == rounds, "a cancel and a yield deadlocked")
        if finished.load(ordering: .relaxed) == rounds { await driver.value }
    }
}

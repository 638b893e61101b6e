import Foundation

/// The serial executor on which the library calls app code: a player's outputs, observers, event and metric
/// subscribers and seek completions, and a Picture in Picture controller's delegates.
///
/// Jobs run one at a time, in the order they were enqueued, on a thread of the executor's own (named after its
/// label): never on the caller's thread, an engine thread, Swift's cooperative pool, or under any lock of the
/// library. App code may therefore call back into the player or controller from a callback; what that call causes
/// is delivered after the callback returns. A callback that blocks delays every later callback of the same owner,
/// and under a ``ManualClock`` it also delays `advance(by:)`, which returns only once the callbacks it caused have
/// run.
///
/// The thread starts with the first job and ends once the executor has been idle for ``idleLifetime`` seconds, or
/// at once when its owner ``close()``s it (a later job starts it again), so an idle or finished owner holds no
/// thread.
package final class CallbackExecutor: @unchecked Sendable {
    private struct Job {
        let run: @Sendable () -> Void
        let isFrame: Bool
    }

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    private var running = false
    private var threadAlive = false
    private var closed = false
    private var frames = 0
    private let label: String
    /// Seconds the thread waits for a new job before it ends.
    package let idleLifetime: Double

    package init(label: String, idleLifetime: Double = 1) {
        self.label = label
        self.idleLifetime = idleLifetime
    }

    /// Runs `job` after every job enqueued before it.
    package func enqueue(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        append(Job(run: job, isFrame: false))
        condition.unlock()
    }

    /// Runs `job`, a frame delivery, after every job enqueued before it, unless `limit` frame deliveries are
    /// waiting already: then it is dropped and false returned (a slow consumer of frames costs bounded memory).
    package func enqueueFrame(limit: Int, _ job: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard frames < limit else { return false }
        frames += 1
        append(Job(run: job, isFrame: true))
        return true
    }

    /// Locked.
    private func append(_ job: Job) {
        jobs.append(job)
        if !threadAlive {
            threadAlive = true
            let thread = Thread { [self] in run() }
            thread.name = label
            thread.stackSize = 1 << 20
            thread.start()
        }
        condition.broadcast()
    }

    /// The owner is finished: the thread ends as soon as the jobs enqueued so far have run.
    package func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether no job is waiting or running.
    package var isIdle: Bool {
        condition.lock()
        defer { condition.unlock() }
        return head == jobs.count && !running
    }

    /// Returns once every job enqueued before the call, and every job those jobs enqueued in turn, has run.
    /// Must not be awaited from a job of this executor (the job would wait for itself).
    package func drain() async {
        while !isIdle {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                enqueue { continuation.resume() }
            }
        }
    }

    /// Blocks the calling thread until no job is waiting or running. For a library thread of its own (an engine
    /// thread under a manual clock), never a job of this executor or the cooperative pool.
    package func waitUntilIdle() {
        condition.lock()
        while head < jobs.count || running { condition.wait() }
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
                if !closed { _ = condition.wait(until: Date(timeIntervalSinceNow: idleLifetime)) }
                if head == jobs.count { break }
                continue
            }
            let job = jobs[head]
            head += 1
            running = true
            condition.unlock()
            job.run()
            condition.lock()
            running = false
            if job.isFrame { frames -= 1 }
            if head == jobs.count { condition.broadcast() }
        }
        threadAlive = false
        condition.broadcast()
        condition.unlock()
    }
}

import Foundation
import Locking
import MediaCore

/// A waiter of a job: the request's continuation and when it asked.
struct Waiting {
    let continuation: CheckedContinuation<Result<Poster, MediaError>, Never>
    let requestedAt: UInt64
}

/// The shared work of one key. Guarded by the pipeline's lock.
final class PosterJob: @unchecked Sendable {
    let request: PosterRequest
    let key: PosterKey
    let enqueuedAt: UInt64
    let order: UInt64
    var priority: PosterRequest.Priority
    var waiters: [UInt64: Waiting] = [:]
    /// The running job's bytes (set by its worker), to stop its reads.
    var source: TimedByteSource?
    var cancelled = false

    private static let counter = Locked(UInt64(0))

    init(request: PosterRequest, key: PosterKey, enqueuedAt: UInt64) {
        self.request = request
        self.key = key
        self.enqueuedAt = enqueuedAt
        self.priority = request.priority
        order = Self.counter.withLock {
            $0 += 1
            return $0
        }
    }
}

/// The pipeline's state, under its lock.
struct PipelineState {
    var jobs: [PosterKey: PosterJob] = [:]
    var queue: [PosterJob] = []
    var running = 0
    var nextWaiter: UInt64 = 0
    /// Waiters that have an id but have not joined a job yet.
    var unjoined: Set<UInt64> = []
    /// Waiters cancelled before they joined.
    var cancelledWaiters: Set<UInt64> = []
    var requests = 0
    var joined = 0
    var started = 0
    var decoded = 0
    var failed = 0
    var cancelledRequests = 0
    var cancelledJobs = 0
    var samples = PosterSamples()

    mutating func newWaiterID() -> UInt64 {
        nextWaiter += 1
        requests += 1
        unjoined.insert(nextWaiter)
        return nextWaiter
    }

    /// Takes the jobs that may start now (visible first, then in order of arrival), counting them as running.
    mutating func startable(limit: Int) -> [PosterJob] {
        var start: [PosterJob] = []
        while running < limit, !queue.isEmpty {
            let index = queue.indices.max { a, b in
                (queue[a].priority, -Int64(bitPattern: queue[a].order))
                    < (queue[b].priority, -Int64(bitPattern: queue[b].order))
            }!
            start.append(queue.remove(at: index))
            running += 1
            started += 1
        }
        return start
    }

    mutating func record(_ timings: PosterTimings, fromCache: Bool) {
        samples.add(timings, fromCache: fromCache)
    }

    func statistics(cache: PosterCache.Statistics) -> PosterStatistics {
        PosterStatistics(
            requests: requests, cacheHits: cache.hits, joined: joined, fetches: started, decodes: decoded,
            failures: failed, cancelledRequests: cancelledRequests, cancelledJobs: cancelledJobs,
            cache: cache, stages: samples.percentiles())
    }
}

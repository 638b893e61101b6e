import Dispatch
import Foundation
import Loading
import Locking
import MediaIO

/// Posters of videos and images, made once however many ask: requests with the same key (``PosterKey``) share one
/// fetch and one decode; each waiter can leave alone, and the shared work stops (its transfer and decoder freed)
/// only when the last one leaves. Made posters are kept in a cost-bounded memory cache. Visible requests go before
/// prefetch ones, and a prefetch that becomes visible is raised; at most ``Configuration/maximumConcurrentDecodes``
/// run at once, each on a thread of its own (FFmpeg and the network never block Swift's cooperative pool).
///
/// Every request records its stages (``PosterTimings``); ``statistics`` gives their p50/p95 and the counts.
public final class PosterPipeline: Sendable {
    public struct Configuration: Sendable {
        /// Decodes at once (2 to 4 is what image pipelines use).
        public var maximumConcurrentDecodes = 3
        /// The memory cache's bound (width x height x 4 per poster).
        public var cacheCostLimit = PosterCache.defaultCostLimit
        /// How far ahead of what the decoder asked for a remote fetch goes (a poster needs a header and one
        /// keyframe, not the file).
        public var readAhead: Int64 = 64 << 10

        public init() {}
    }

    public let configuration: Configuration
    public let cache: PosterCache
    /// Encoded posters kept between runs, when given.
    public let diskCache: PosterDiskCache?
    public let loading: RemoteLoading
    let state = Locked(PipelineState())
    let events = Locked<[@Sendable (PosterEvent) -> Void]>([])

    /// A pipeline loading http(s) sources through `loading`, with a disk tier when `diskCache` is given.
    public init(
        configuration: Configuration = Configuration(), loading: RemoteLoading = .shared,
        diskCache: PosterDiskCache? = nil
    ) {
        self.diskCache = diskCache
        var configuration = configuration
        configuration.maximumConcurrentDecodes = min(max(configuration.maximumConcurrentDecodes, 1), 16)
        self.configuration = configuration
        self.loading = loading
        cache = PosterCache(costLimit: configuration.cacheCostLimit)
    }

    /// The poster `request` asks for: from the cache, from work under way for the same key, or made now.
    /// - Throws: `MediaError` naming the source and why (a missing file, a dead server, a broken picture), or
    ///   `.cancelled` when the calling task is cancelled (the shared work goes on while others wait for it).
    public func poster(for request: PosterRequest) async throws(MediaError) -> Poster {
        let start = DispatchTime.now().uptimeNanoseconds
        let key = request.key
        if let cached = cache.poster(for: key) {
            var timings = PosterTimings()
            timings.total = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let poster = Poster(
                image: cached.image, sourceWidth: cached.sourceWidth, sourceHeight: cached.sourceHeight,
                decodedWidth: cached.decodedWidth, decodedHeight: cached.decodedHeight,
                time: cached.time, key: key, timings: timings, fromCache: true)
            state.withLock { $0.record(poster.timings, fromCache: true) }
            notify(.completed(key: key, timings: timings, fromCache: true))
            return poster
        }
        let waiter = state.withLock { $0.newWaiterID() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Poster, MediaError>, Never>) in
                join(request, key: key, waiter: waiter, continuation: continuation, requestedAt: start)
            }
        } onCancel: {
            leave(key: key, waiter: waiter)
        }
        return try result.get()
    }

    /// What the pipeline did so far.
    public var statistics: PosterStatistics {
        let cacheStatistics = cache.statistics
        return state.withLock { $0.statistics(cache: cacheStatistics) }
    }

    /// Jobs waiting for a decode slot and jobs running.
    public var pendingJobs: (queued: Int, running: Int) { state.withLock { ($0.queue.count, $0.running) } }

    /// Calls `observer` with every completed, failed or cancelled request, on the thread that ended it (keep it
    /// quick; never under the pipeline's lock).
    public func observeEvents(_ observer: @escaping @Sendable (PosterEvent) -> Void) {
        events.withLock { $0.append(observer) }
    }

    /// Trims the memory cache to `cost` bytes (a memory budget's call).
    public func trimMemory(toCost cost: Int) { cache.trim(toCost: cost) }

    func notify(_ event: PosterEvent) {
        for observer in events.withLock({ $0 }) { observer(event) }
    }

    // MARK: Waiters

    private func join(
        _ request: PosterRequest, key: PosterKey, waiter: UInt64,
        continuation: CheckedContinuation<Result<Poster, MediaError>, Never>, requestedAt: UInt64
    ) {
        let (start, raise, cancelled) = state.withLock { state -> ([PosterJob], TimedByteSource?, Bool) in
            state.unjoined.remove(waiter)
            if state.cancelledWaiters.remove(waiter) != nil { return ([], nil, true) }
            var raise: TimedByteSource?
            if let job = state.jobs[key] {
                job.waiters[waiter] = Waiting(continuation: continuation, requestedAt: requestedAt)
                state.joined += 1
                if request.priority > job.priority {
                    job.priority = request.priority
                    raise = job.source
                }
            } else {
                let job = PosterJob(request: request, key: key, enqueuedAt: requestedAt)
                job.waiters[waiter] = Waiting(continuation: continuation, requestedAt: requestedAt)
                state.jobs[key] = job
                state.queue.append(job)
            }
            return (state.startable(limit: configuration.maximumConcurrentDecodes), raise, false)
        }
        if cancelled {
            continuation.resume(returning: .failure(Self.cancellation(request.source)))
            return
        }
        if let raise, let remote = raise.inner as? RemoteByteSource { remote.setPriority(.playback) }
        for job in start { run(job) }
    }

    private func leave(key: PosterKey, waiter: UInt64) {
        let (left, stop) = state.withLock { state -> (Waiting?, PosterJob?) in
            guard let job = state.jobs[key], let left = job.waiters.removeValue(forKey: waiter) else {
                // Cancelled before it joined: `join` sees it and answers at once. (One that got its poster
                // already is not waiting any more: nothing to do.)
                if state.unjoined.contains(waiter) { state.cancelledWaiters.insert(waiter) }
                return (nil, nil)
            }
            state.cancelledRequests += 1
            guard job.waiters.isEmpty else { return (left, nil) }
            state.jobs[key] = nil
            state.cancelledJobs += 1
            if let index = state.queue.firstIndex(where: { $0 === job }) {
                state.queue.remove(at: index)
                return (left, nil)
            }
            job.cancelled = true
            return (left, job)
        }
        if let left {
            left.continuation.resume(returning: .failure(Self.cancellation(key.source)))
            notify(.cancelled(key: key))
        }
        // The last waiter left while the work ran: stop its reads (the transfer ends with its reader) at once.
        stop?.source?.cancel()
    }

    static func cancellation(_ source: String) -> MediaError {
        MediaError(.cancelled, url: source, operation: .read, reason: "the request was cancelled")
    }
}

/// What a pipeline tells its observers.
public enum PosterEvent: Sendable {
    case completed(key: PosterKey, timings: PosterTimings, fromCache: Bool)
    case failed(key: PosterKey, error: MediaError)
    case cancelled(key: PosterKey)
}

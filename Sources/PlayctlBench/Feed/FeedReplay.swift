import Feed
import Foundation
import Loading
import Playback
import PlaybackTesting

/// Replays a swipe trace through playctl's `FeedController` in real time (host clock), over HTTP: a new byte
/// cache (memory only, 32 MB, as `ByteCache.shared`) and the shared HTTP loader.
enum FeedReplay {
    /// Scrolls to the trace's opening item, waits for its first frame (the user starts watching then), then swipes
    /// at the trace's times; with `dropsTargets`, each item's cached bytes are dropped just before it is swiped to,
    /// so that it starts cold whatever was fetched before, and the bytes of other items that arrive before its first
    /// frame are counted (what prefetching took from it).
    static func run(
        _ name: String, trace: SwipeTrace, entries: [FeedEntry], configuration: FeedConfiguration,
        dropsTargets: Bool = false
    ) async -> SwipeRun {
        let cache = ByteCache()
        let feed = FeedController(
            entries: entries, configuration: configuration,
            loading: RemoteLoading(cache: cache, transport: HTTPLoader.shared), clock: .host)
        let log = FeedEventLog(feed)
        let claims = Task { await claimedShare(cache) }
        let started = ProcessRunner.monotonicSeconds()
        feed.scroll(to: trace.steps[0].index)
        while !log.hasFirstFrame(step: 0) && ProcessRunner.monotonicSeconds() - started < 30 {
            try? await Task.sleep(for: .milliseconds(5))
        }
        var next = ProcessRunner.monotonicSeconds() + trace.steps[0].dwell
        var others: [Int64?] = []
        for (number, step) in trace.steps.enumerated().dropFirst() {
            await sleep(until: next)
            let url = entries[step.index].url
            if dropsTargets { cache.remove(url) }
            let fetched = cache.currentStatistics.bytesFetched
            let swiped = ProcessRunner.monotonicSeconds()
            feed.scroll(to: step.index, speed: 1)
            next = swiped + step.dwell
            if dropsTargets {
                others.append(await otherBytes(cache, log, step: number, target: url, since: fetched, until: next))
            }
        }
        await sleep(until: next)
        var run = SwipeRun(name: name)
        run.summary = feed.summary
        claims.cancel()
        run.linkClaimed = await claims.value
        feed.invalidate()
        await feed.eventsDelivered()
        run.swipes = log.swipes(trace)
        if others.count == run.swipes.count {
            for (offset, bytes) in others.enumerated() { run.swipes[offset].otherBytes = bytes }
        }
        run.failures = log.failures
        run.seconds = ProcessRunner.monotonicSeconds() - started
        return run
    }

    /// The bytes of other items than `target` that reached the cache from `fetched` (its count at the swipe) until
    /// step `step`'s first frame; nil when none came by `deadline`. Looked at every 2 ms.
    static func otherBytes(
        _ cache: ByteCache, _ log: FeedEventLog, step: Int, target: String, since fetched: Int64, until deadline: Double
    ) async -> Int64? {
        while ProcessRunner.monotonicSeconds() < deadline {
            if log.hasFirstFrame(step: step) {
                let held = cache.cachedRanges(of: target).reduce(Int64(0)) { $0 + Int64($1.count) }
                return max(cache.currentStatistics.bytesFetched - fetched - held, 0)
            }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return nil
    }

    /// The share of 10 ms looks at which `cache`'s link was claimed, until the task is cancelled.
    static func claimedShare(_ cache: ByteCache) async -> Double {
        var looks = 0
        var claimed = 0
        while !Task.isCancelled {
            looks += 1
            if cache.isLinkClaimed { claimed += 1 }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return Double(claimed) / Double(max(looks, 1))
    }

    /// Sleeps until `time` (monotonic seconds).
    static func sleep(until time: Double) async {
        let left = time - ProcessRunner.monotonicSeconds()
        guard left > 0 else { return }
        try? await Task.sleep(for: .nanoseconds(Int64(left * 1e9)))
    }
}

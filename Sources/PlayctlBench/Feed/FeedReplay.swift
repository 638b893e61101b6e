import Feed
import Foundation
import Playback
import PlaybackTesting

/// Replays a swipe trace through playctl's `FeedController` in real time (host clock), over HTTP: a new byte
/// cache (memory only, 32 MB, as `ByteCache.shared`) and the shared HTTP loader.
enum FeedReplay {
    /// Scrolls to the trace's opening item, waits for its first frame (the user starts watching then), then swipes
    /// at the trace's times; with `dropsTargets`, each item's cached bytes are dropped just before it is swiped to,
    /// so that it starts cold whatever was fetched before.
    static func run(
        _ name: String, trace: SwipeTrace, entries: [FeedEntry], configuration: FeedConfiguration,
        dropsTargets: Bool = false
    ) async -> SwipeRun {
        let cache = ByteCache()
        let feed = FeedController(
            entries: entries, configuration: configuration,
            loading: RemoteLoading(cache: cache, transport: HTTPLoader.shared), clock: .host)
        let log = FeedEventLog(feed)
        let started = ProcessRunner.monotonicSeconds()
        let opening = trace.steps[0]
        feed.scroll(to: opening.index)
        while !log.hasFirstFrame(opening.index) && ProcessRunner.monotonicSeconds() - started < 30 {
            try? await Task.sleep(for: .milliseconds(5))
        }
        var next = ProcessRunner.monotonicSeconds() + opening.dwell
        for step in trace.steps.dropFirst() {
            await sleep(until: next)
            if dropsTargets { cache.remove(entries[step.index].url) }
            let swiped = ProcessRunner.monotonicSeconds()
            feed.scroll(to: step.index, speed: 1)
            next = swiped + step.dwell
        }
        await sleep(until: next)
        var run = SwipeRun(name: name)
        run.summary = feed.summary
        feed.invalidate()
        await feed.eventsDelivered()
        run.swipes = log.swipes(trace)
        run.failures = log.failures
        run.seconds = ProcessRunner.monotonicSeconds() - started
        return run
    }

    /// Sleeps until `time` (monotonic seconds).
    static func sleep(until time: Double) async {
        let left = time - ProcessRunner.monotonicSeconds()
        guard left > 0 else { return }
        try? await Task.sleep(for: .nanoseconds(Int64(left * 1e9)))
    }
}

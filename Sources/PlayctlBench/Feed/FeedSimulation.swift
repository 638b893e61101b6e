import Feed
import Loading
import Playback
import PlaybackTesting

/// A feed over PlaybackTesting's `SimulatedNetwork` under a manual clock: the same `FeedController`, players,
/// loader and byte cache as over HTTP, the files decoded for real, but time is virtual, so a trace of thousands of
/// swipes takes what decoding takes, and replays the same way every run.
final class FeedSimulation: Sendable {
    let clock = ManualClock()
    let network: SimulatedNetwork
    let cache: ByteCache
    let feed: FeedController
    let log: FeedEventLog

    /// The host the entries' URLs name (the network serves the file of the URL's last path component).
    static let host = "http://feed.sim"
    /// Seconds of clock time per advance: first frames are timed to this step.
    static let step = 0.05

    /// A feed of `media`'s files (`copies` times over, under distinct URLs) over a link of `bytesPerSecond` with
    /// `latency` seconds before each response.
    init(media: FeedMedia, copies: Int = 1, bytesPerSecond: Int, latency: Double, configuration: FeedConfiguration) {
        network = SimulatedNetwork(
            clock: clock, bytesPerSecond: bytesPerSecond, latency: latency, directory: media.directory)
        cache = ByteCache()
        feed = FeedController(
            entries: media.entries(base: Self.host, copies: copies), configuration: configuration,
            loading: RemoteLoading(cache: cache, transport: network), clock: .manual(clock))
        log = FeedEventLog(feed)
    }

    /// Moves the clock by `seconds` in steps of ``step``.
    func advance(_ seconds: Double) async {
        let steps = Int((seconds / Self.step).rounded())
        for _ in 0..<steps { await clock.advance(bySeconds: Self.step) }
    }

    /// Opens the feed on the trace's first item, waits for its first frame (up to 30 s of clock time), then swipes
    /// at the trace's times; `afterSwipe` is called after each swipe's dwell with the swipe's number (from 1).
    func replay(_ trace: SwipeTrace, afterSwipe: (Int) async -> Void = { _ in }) async -> SwipeRun {
        let opening = trace.steps[0]
        feed.scroll(to: opening.index)
        var waited = 0.0
        while !log.hasFirstFrame(step: 0) && waited < 30 {
            await clock.advance(bySeconds: Self.step)
            waited += Self.step
        }
        await advance(opening.dwell)
        for (number, step) in trace.steps.enumerated().dropFirst() {
            feed.scroll(to: step.index, speed: 1)
            await advance(step.dwell)
            await afterSwipe(number)
        }
        var run = SwipeRun(name: "")
        run.summary = feed.summary
        await feed.eventsDelivered()
        run.swipes = log.swipes(trace)
        run.failures = log.failures
        return run
    }

    /// Ends the feed (its players stop, its prefetches are cancelled).
    func stop() async {
        feed.invalidate()
        await feed.eventsDelivered()
        await clock.advance(by: .zero)
    }
}

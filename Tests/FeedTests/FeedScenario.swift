import Feed
import Foundation
import Loading
import Locking
import Playback
import PlaybackTesting
import Streaming

/// A feed of the committed clips and a still over a simulated link, under a manual clock: what the feed
/// scenario tests drive.
final class FeedScenario: Sendable {
    let clock = ManualClock()
    let network: SimulatedNetwork
    let loading: RemoteLoading
    let feed: FeedController
    private let log = Locked<[FeedEvent]>([])

    /// The files the entries cycle through (`Media/`).
    static let files = ["a.mp4", "c.webm", "b.mp4", "still.jpg", "rotated.mp4"]

    /// `count` entries cycling through ``files``, each under its own URL; `missing` entries name a file the link
    /// does not have (a 404).
    static func entries(_ count: Int, missing: Set<Int> = []) -> [FeedEntry] {
        entries(0..<count, missing: missing)
    }

    /// The entries of `indices`, named as ``entries(_:missing:)`` names them (a page of an endless feed).
    static func entries(_ indices: Range<Int>, missing: Set<Int> = []) -> [FeedEntry] {
        indices.map { index in
            let file = missing.contains(index) ? "missing.mp4" : files[index % files.count]
            return FeedEntry(
                url: "http://feed.test/\(index)/\(file)", kind: file.hasSuffix(".jpg") ? .image : .video)
        }
    }

    /// `count` videos of one file, each under its own URL.
    static func entries(_ count: Int, of file: String) -> [FeedEntry] {
        (0..<count).map { FeedEntry(url: "http://feed.test/\($0)/\(file)", kind: .video) }
    }

    init(
        entries: [FeedEntry], bytesPerSecond: Int, configuration: FeedConfiguration = FeedScenario.configuration(),
        pageSource: (any FeedPageSource)? = nil
    ) {
        network = SimulatedNetwork(
            clock: clock, bytesPerSecond: bytesPerSecond, latency: 0.05, directory: MediaFixtures.directory.path)
        loading = RemoteLoading(cache: ByteCache(memoryLimit: 64 << 20), transport: network)
        feed = FeedController(
            entries: entries, pageSource: pageSource, configuration: configuration, loading: loading,
            clock: .manual(clock))
        feed.observeEvents { [log] event in log.withLock { $0.append(event) } }
    }

    /// The tests' defaults: no audio (the clips' audio adds nothing to what is checked), a small pool.
    static func configuration(_ change: (inout FeedConfiguration) -> Void = { _ in }) -> FeedConfiguration {
        var configuration = FeedConfiguration()
        configuration.audio = false
        configuration.poolSize = 3
        configuration.memoryBudget = nil
        // Its own estimate: the process-wide one holds what other feeds (other tests) measured.
        configuration.bandwidthEstimate = SharedBandwidthEstimate()
        change(&configuration)
        return configuration
    }

    /// Advances the clock by `seconds` in steps of `step`.
    func advance(_ seconds: Double, step: Double = 0.05) async {
        let steps = Int((seconds / step).rounded())
        for _ in 0..<steps { await clock.advance(bySeconds: step) }
    }

    /// The events so far, one line each.
    var trace: [String] { log.withLock { $0.map(\.description) } }
    var events: [FeedEvent] { log.withLock { $0 } }

    func stop() { feed.invalidate() }
}

import Feed
import Foundation
import Loading
import Locking
import Streaming

/// A feed on the host clock over nginx (the network tests): scrolled to its first item, run until that item plays
/// and the next one is prepared with its frame (at most 30 s), then a second more for the prefetches.
enum FeedNetworkRun {
    /// The events of such a run of `entries`, with an estimate of its own (what other tests of the process measured
    /// does not count), no audio, a pool of 3 and no memory budget.
    static func events(_ entries: [FeedEntry], estimate: Double) async throws -> [FeedEvent] {
        var configuration = FeedConfiguration()
        configuration.audio = false
        configuration.poolSize = 3
        configuration.memoryBudget = nil
        configuration.bandwidthEstimate = SharedBandwidthEstimate()
        configuration.bandwidthEstimate = .known(estimate)
        let feed = FeedController(
            entries: entries, configuration: configuration, loading: RemoteLoading(cache: ByteCache()), clock: .host)
        let events = Locked<[FeedEvent]>([])
        feed.observeEvents { event in events.withLock { $0.append(event) } }
        feed.scroll(to: 0)
        let deadline = Date().addingTimeInterval(30)
        func seen(_ match: (FeedEvent.Kind) -> Bool) -> Bool { events.withLock { $0.contains { match($0.kind) } } }
        while Date() < deadline {
            let started = seen { if case .started(0, _, _) = $0 { true } else { false } }
            let prepared = seen { if case .prepared(1, _, true) = $0 { true } else { false } }
            if started && prepared { break }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        try await Task.sleep(nanoseconds: 1_000_000_000)
        feed.invalidate()
        await feed.eventsDelivered()
        return events.withLock { $0 }
    }
}

import Foundation
import Loading
import Playback
import PlaybackTesting
import Testing

@testable import Feed

/// The feed's map of the URLs its HLS and DASH items fetched (``AdaptiveFetches``): bounded in bytes, and what it
/// folds or forgets keeps its bytes with its item. Bytes really fetched, through a byte cache over a simulated link.
@Suite("Feed: the URLs adaptive items fetched, bounded")
struct AdaptiveFetchesTests {
    /// The first `bytes` of each of `urls`, fetched through `loading` (its link follows `clock`).
    static func fetch(
        _ urls: [String], bytes: Int64, loading: RemoteLoading, clock: ManualClock
    ) async throws {
        let tasks = urls.map { loading.prefetch($0, upTo: bytes) }
        let deadline = Date().addingTimeInterval(30)
        while tasks.contains(where: { $0.result == nil }) {
            #expect(Date() < deadline, "the prefetches did not end within 30 s")
            if Date() >= deadline { return }
            await clock.advance(bySeconds: 0.05)
        }
        for task in tasks { #expect(task.result.map { (try? $0.get()) != nil } == true, "\(task.url)") }
    }

    @Test("past its byte limit the first URLs fold into their items' totals: the map stays bounded, no byte lost")
    func foldsWithinTheBound() async throws {
        let clock = ManualClock()
        let network = SimulatedNetwork(
            clock: clock, bytesPerSecond: 10_000_000, latency: 0.01, directory: MediaFixtures.directory.path)
        let loading = RemoteLoading(cache: ByteCache(memoryLimit: 64 << 20), transport: network)
        let tally = loading.cache.tally([String]())
        let limit = 4096
        let fetches = AdaptiveFetches(byteLimit: limit)
        // 120 segment URLs of 3 items (about 40 bytes each, 136 with the entry cost: about 30 fit the limit).
        let urls = (0..<120).map { "http://feed.test/item\($0 % 3)/seg\($0).mp4" }
        var highest = 0
        for (number, url) in urls.enumerated() {
            fetches.record(url, item: number % 3, tally: tally)
            highest = max(highest, fetches.cost)
            #expect(fetches.cost <= limit, "after \(number + 1) URLs: \(fetches.cost) bytes")
        }
        #expect(highest > limit / 2, "the limit was reached: \(highest)")
        // Recording a URL again changes nothing.
        let before = fetches.cost
        fetches.record(urls.last!, item: 0, tally: tally)
        #expect(fetches.cost == before)
        // Twelve URLs of a real file (the link serves files by name), 4 an item, their first 1000 bytes fetched:
        // each item's bytes are kept whether its URLs are still mapped or were folded since.
        let real = (0..<12).map { "http://feed.test/item\($0 % 3)/\($0)/a.mp4" }
        for (number, url) in real.enumerated() { fetches.record(url, item: number % 3, tally: tally) }
        try await Self.fetch(real, bytes: 1000, loading: loading, clock: clock)
        // More URLs fold the fetched ones out of the map.
        for number in 0..<60 { fetches.record("http://feed.test/late/\(number)", item: 5, tally: tally) }
        let snapshot = fetches.snapshot
        #expect(snapshot.owners.count * AdaptiveFetches.entryCost <= limit)
        #expect(tally.bytesFetched.count * AdaptiveFetches.entryCost <= limit, "the tally holds the mapped URLs only")
        var byItem: [Int: Int64] = snapshot.folded
        for (url, bytes) in tally.bytesFetched { byItem[snapshot.owners[url] ?? -1, default: 0] += bytes }
        #expect(byItem[0] == 4000 && byItem[1] == 4000 && byItem[2] == 4000, "\(byItem)")
        #expect(byItem[-1] == nil, "every counted URL has its item")
        // Forgetting the items before 3 gives their bytes back and empties their part.
        let forgotten = fetches.forget(before: 3, tally: tally)
        #expect(forgotten[0] == 4000 && forgotten[1] == 4000 && forgotten[2] == 4000, "\(forgotten)")
        #expect(fetches.snapshot.owners.values.allSatisfy { $0 == 5 })
        #expect(fetches.snapshot.folded.keys.allSatisfy { $0 == 5 })
        #expect(fetches.cost == fetches.snapshot.owners.keys.reduce(0) { $0 + AdaptiveFetches.cost(of: $1) })
    }

    @Test("a URL the tally counted already (an entry's own) stays the entry's")
    func entryURLsStayOut() {
        let cache = ByteCache()
        let tally = cache.tally(["http://feed.test/0/master.m3u8"])
        let fetches = AdaptiveFetches()
        fetches.record("http://feed.test/0/master.m3u8", item: 0, tally: tally)
        fetches.record("http://feed.test/0/v0/index.m3u8", item: 0, tally: tally)
        fetches.record("http://feed.test/0/v0/index.m3u8", item: 1, tally: tally)
        #expect(fetches.snapshot.owners == ["http://feed.test/0/v0/index.m3u8": 0])
        #expect(Set(tally.bytesFetched.keys) == ["http://feed.test/0/master.m3u8", "http://feed.test/0/v0/index.m3u8"])
    }
}

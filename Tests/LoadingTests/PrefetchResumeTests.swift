import Loading
import Playback
import PlaybackTesting
import Testing

/// Prefetches over the simulated link: deterministic, without a server.
@Suite("Prefetches over a simulated link")
struct PrefetchResumeTests {
    @Test(
        "a prefetch whose connection drops is resumed; cancelled on a link with nothing in flight, its transfer is cut")
    func cancelAfterResume() async throws {
        let clock = ManualClock()
        let network = SimulatedNetwork(
            clock: clock, bytesPerSecond: 100_000, latency: 0, dropAfter: 60_000,
            directory: MediaFixtures.directory.path)
        let loading = RemoteLoading(cache: ByteCache(), transport: network)
        let url = "http://simulated/a.mp4"
        let task = loading.prefetch(url, upTo: 300_000)
        for _ in 0..<3 { await clock.advance(bySeconds: 0.5) }
        let held = { loading.cache.cachedRanges(of: url).reduce(0) { $0 + $1.count } }
        let before = held()
        #expect(before > 60_000, "past the first drop: \(before) bytes")
        #expect(task.result == nil)
        #expect(network.activeTransfers == 1)
        task.cancel()
        guard case .failure(let error)? = task.result, error.kind == .cancelled else {
            Issue.record("cancelled: \(String(describing: task.result))")
            return
        }
        #expect(error.url == url)
        let transfers = loading.cache.currentStatistics.transfersStarted
        for _ in 0..<4 { await clock.advance(bySeconds: 1) }
        #expect(network.activeTransfers == 0)
        #expect(loading.cache.currentStatistics.transfersStarted == transfers, "no range after the cancel")
        // The simulated link holds no bytes on their way (its responses come at once): nothing is worth letting
        // come, the transfer is cut.
        #expect(held() == before)
    }

    @Test("a prefetch's result is set in the clock step its last byte arrives")
    func resultInStep() async throws {
        let clock = ManualClock()
        let network = SimulatedNetwork(
            clock: clock, bytesPerSecond: 100_000, latency: 0, directory: MediaFixtures.directory.path)
        let loading = RemoteLoading(cache: ByteCache(), transport: network)
        let task = loading.prefetch("http://simulated/a.mp4", upTo: 150_000)
        await clock.advance(bySeconds: 1)
        #expect(task.result == nil)
        await clock.advance(bySeconds: 1)
        #expect(try task.result?.get() != nil)
    }
}

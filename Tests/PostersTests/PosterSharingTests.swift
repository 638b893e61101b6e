import Dispatch
import Foundation
import Loading
import Locking
import Playback
import PlaybackTesting
import Posters
import Testing

/// Requests for one key share one fetch and one decode; each waiter may leave alone.
@Suite("Shared poster work: de-duplication and cancellation")
struct PosterSharingTests {
    @Test(
        "50 concurrent requests for one key over the real server: one fetch, one decode, 50 posters",
        .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
    func fiftyShareOne() async throws {
        let loading = RemoteLoading(cache: ByteCache())
        let pipeline = PosterPipeline(loading: loading)
        let request = PosterRequest(
            source: TestHTTPServer.url("hd.mp4", over: .mbit8), width: 180, height: 320, fit: .fill)
        let posters = try await withThrowingTaskGroup(of: Poster.self) { group in
            for _ in 0..<50 { group.addTask { try await pipeline.poster(for: request) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(posters.count == 50)
        #expect(Set(posters.map(\.image.bytes)).count == 1)
        // One job's fetches: the header's first bytes, the rest of the header, the first frame's samples (each a
        // byte range ending where that need ends; PosterBytesTests counts them on the wire).
        #expect(loading.cache.currentStatistics.fetchesStarted <= 3, "one job's fetches, not one per request")
        let statistics = pipeline.statistics
        #expect(statistics.fetches == 1 && statistics.decodes == 1)
        #expect(statistics.joined == 49)
        // Only what the poster needs: the header and the first keyframe (plus the read-ahead), not the file.
        let size = try FileManager.default.attributesOfItem(atPath: TestHTTPServer.localPath("hd.mp4"))[.size] as! Int
        let fetched = loading.cache.currentStatistics.bytesFetched
        #expect(fetched < Int64(size) / 4, "fetched \(fetched) of \(size) bytes")
    }

    /// A pipeline over a link that moves only with the clock: a request waits for bytes until the test advances.
    static func slowPipeline() -> (ManualClock, SimulatedNetwork, PosterPipeline) {
        let clock = ManualClock()
        let network = SimulatedNetwork(
            clock: clock, bytesPerSecond: 20_000, latency: 0.05, directory: MediaFixtures.directory.path)
        let pipeline = PosterPipeline(loading: RemoteLoading(cache: ByteCache(), transport: network))
        return (clock, network, pipeline)
    }

    @Test("49 of 50 waiters leave: the work goes on and the last one gets its poster")
    func lastWaiterGetsIt() async throws {
        let (clock, network, pipeline) = Self.slowPipeline()
        let request = PosterRequest(source: "http://sim.test/a.mp4", width: 64)
        let tasks = (0..<50).map { _ in Task { try await pipeline.poster(for: request) } }
        try await waitUntil("49 requests joined to the first") { pipeline.statistics.joined >= 49 }
        for task in tasks.dropLast() { task.cancel() }
        try await withDeadline("the 49 cancelled waiters to end") {
            for task in tasks.dropLast() {
                do {
                    _ = try await task.value
                    Issue.record("a cancelled waiter got a poster")
                } catch let error as MediaError {
                    #expect(error.kind == .cancelled)
                }
            }
        }
        #expect(pipeline.pendingJobs.running == 1)
        // a.mp4's header and first keyframe need a few seconds at 20 KB/s.
        for _ in 0..<200 where pipeline.statistics.decodes == 0 {
            await clock.advance(bySeconds: 0.1)
            try await Task.sleep(for: .milliseconds(1))
        }
        let last = tasks.last!
        let poster = try await withDeadline("the last waiter's poster of a.mp4") { try await last.value }
        #expect(poster.image.width == 64)
        let statistics = pipeline.statistics
        #expect(statistics.cancelledRequests == 49 && statistics.cancelledJobs == 0 && statistics.fetches == 1)
        _ = network
    }

    @Test("all waiters leave: the transfer and the decoder are freed at once")
    func allLeave() async throws {
        let (clock, network, pipeline) = Self.slowPipeline()
        let request = PosterRequest(source: "http://sim.test/a.mp4", width: 64)
        let tasks = (0..<5).map { _ in Task { try await pipeline.poster(for: request) } }
        try await waitUntil("4 requests joined and a transfer going") {
            pipeline.statistics.joined >= 4 && network.activeTransfers > 0
        }
        // Less than the header's first 4 KB take at 20 KB/s: its transfer is under way when they leave.
        await clock.advance(bySeconds: 0.1)
        #expect(network.activeTransfers == 1)
        for task in tasks { task.cancel() }
        try await withDeadline("the 5 cancelled requests to end") {
            for task in tasks { _ = try? await task.value }
        }
        // The worker stops reading at once; its reader leaving ends the transfer. "At once" in the simulated
        // network's time: the clock does not move again, so a transfer that waited for more bytes would never end.
        try await waitUntil("the job and the transfer to end without the simulated clock moving") {
            pipeline.pendingJobs.running == 0 && network.activeTransfers == 0
        }
        let statistics = pipeline.statistics
        #expect(statistics.cancelledJobs == 1 && statistics.decodes == 0 && statistics.failures == 0)
        #expect(pipeline.cache.statistics.count == 0)
    }

    @Test("a prefetch joined by a visible request is raised: it goes before a visible one queued after it")
    func priorities() async throws {
        var configuration = PosterPipeline.Configuration()
        configuration.maximumConcurrentDecodes = 1
        let clock = ManualClock()
        let network = SimulatedNetwork(
            clock: clock, bytesPerSecond: 1_000_000, latency: 0, directory: MediaFixtures.directory.path)
        let pipeline = PosterPipeline(
            configuration: configuration, loading: RemoteLoading(cache: ByteCache(), transport: network))
        let order = Locked<[String]>([])
        pipeline.observeEvents { event in
            if case .completed(let key, _, _) = event { order.withLock { $0.append(key.source) } }
        }
        // The first takes the only slot; then a prefetch and a visible one queue: the visible one goes first.
        let first = Task { try await pipeline.poster(for: PosterRequest(source: "http://sim.test/a.mp4")) }
        try await waitUntil("a job running") { pipeline.pendingJobs.running > 0 }
        let prefetch = Task {
            try await pipeline.poster(for: PosterRequest(source: "http://sim.test/b.mp4", priority: .prefetch))
        }
        try await waitUntil("one job queued") { pipeline.pendingJobs.queued >= 1 }
        let visible = Task { try await pipeline.poster(for: PosterRequest(source: "http://sim.test/c.webm")) }
        try await waitUntil("two jobs queued") { pipeline.pendingJobs.queued >= 2 }
        // Then a visible request joins the prefetch of b: raised, and queued before c, it goes before it.
        let raised = Task { try await pipeline.poster(for: PosterRequest(source: "http://sim.test/b.mp4")) }
        try await waitUntil("a request joined") { pipeline.statistics.joined >= 1 }
        for _ in 0..<100 where order.withLock({ $0.count }) < 4 {
            await clock.advance(bySeconds: 0.1)
            try await Task.sleep(for: .milliseconds(2))
        }
        _ = try await withDeadline("the four posters") {
            try await (first.value, prefetch.value, visible.value, raised.value)
        }
        #expect(
            order.withLock { $0 }.map { $0.split(separator: "/").last.map(String.init) ?? "" } == [
                "a.mp4", "b.mp4", "b.mp4", "c.webm",
            ])
    }

    @Test("without the raise, the visible request goes before the prefetch queued earlier")
    func visibleFirst() async throws {
        var configuration = PosterPipeline.Configuration()
        configuration.maximumConcurrentDecodes = 1
        let clock = ManualClock()
        let network = SimulatedNetwork(
            clock: clock, bytesPerSecond: 1_000_000, latency: 0, directory: MediaFixtures.directory.path)
        let pipeline = PosterPipeline(
            configuration: configuration, loading: RemoteLoading(cache: ByteCache(), transport: network))
        let order = Locked<[String]>([])
        pipeline.observeEvents { event in
            if case .completed(let key, _, _) = event { order.withLock { $0.append(key.source) } }
        }
        let first = Task { try await pipeline.poster(for: PosterRequest(source: "http://sim.test/a.mp4")) }
        try await waitUntil("a job running") { pipeline.pendingJobs.running > 0 }
        let prefetch = Task {
            try await pipeline.poster(for: PosterRequest(source: "http://sim.test/b.mp4", priority: .prefetch))
        }
        try await waitUntil("one job queued") { pipeline.pendingJobs.queued >= 1 }
        let visible = Task { try await pipeline.poster(for: PosterRequest(source: "http://sim.test/c.webm")) }
        try await waitUntil("two jobs queued") { pipeline.pendingJobs.queued >= 2 }
        for _ in 0..<100 where order.withLock({ $0.count }) < 3 {
            await clock.advance(bySeconds: 0.1)
            try await Task.sleep(for: .milliseconds(2))
        }
        _ = try await withDeadline("the three posters") { try await (first.value, prefetch.value, visible.value) }
        #expect(
            order.withLock { $0 }.map { $0.split(separator: "/").last.map(String.init) ?? "" } == [
                "a.mp4", "c.webm", "b.mp4",
            ])
    }
}

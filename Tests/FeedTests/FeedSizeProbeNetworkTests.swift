import Foundation
import Loading
import Locking
import PlaybackTesting
import Streaming
import Testing

@testable import Feed

/// Size probes over nginx: on a capped link a feed whose entries tell no size sends one `HEAD` per video through
/// its loader before loading it; the video over the cap by its answer fetches nothing but its poster picture until
/// tapped; a probe answered 404 is a typed event and the item loads as one without a size; a length the byte
/// cache holds is used without a request.
@Suite(
    "Feed: size probes over HTTP",
    .enabled(if: TestHTTPServer.skipReason == nil && TestHTTPServer.accessLog != nil, "needs scripts/netns.sh"))
struct FeedSizeProbeNetworkTests {
    /// The events of `feed` so far.
    final class Log: Sendable {
        let events = Locked<[FeedEvent]>([])

        init(_ feed: FeedController) {
            feed.observeEvents { [events] event in events.withLock { $0.append(event) } }
        }

        var all: [FeedEvent] { events.withLock { $0 } }

        /// Waits (30 s at most, a hang detector) until `found` holds of the events; false when it never did.
        func wait(for what: String, _ found: ([FeedEvent]) -> Bool) async throws -> Bool {
            let deadline = Date().addingTimeInterval(30)
            while !found(all) {
                if Date() > deadline {
                    Issue.record("waited 30 s for \(what): \(all.map(\.description).joined(separator: "\n"))")
                    return false
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            return true
        }
    }

    /// The length of the served file `name`.
    static func size(_ name: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: TestHTTPServer.localPath(name))[.size] as? Int)
    }

    @Test("cellular: one HEAD per video; the one over the cap by its HEAD fetches its poster alone until tapped")
    func capsByHead() async throws {
        let marker = "size-probe-\(UUID().uuidString)"
        let aSize = try Self.size("a.mp4")
        let bSize = try Self.size("b.mp4")
        let names = ["b.mp4", "a.mp4", "b.mp4", "missing.mp4"]
        let entries = names.enumerated().map { index, name in
            FeedEntry(
                url: TestHTTPServer.url("\(name)?\(marker)-\(index)"), kind: .video,
                poster: TestHTTPServer.url("still.jpg?\(marker)-poster-\(index)"))
        }
        var configuration = FeedConfiguration()
        configuration.audio = false
        configuration.memoryBudget = nil
        configuration.profile = .cellular
        configuration.posterSize = (90, 160)
        // b.mp4 (41 KB) is under it, a.mp4 (390 KB) over it.
        #expect(bSize < 200_000 && aSize > 200_000)
        configuration.policy.cellularAutoloadByteCap = 200_000
        let loader = HTTPLoader()
        let feed = FeedController(
            entries: entries, configuration: configuration,
            loading: RemoteLoading(cache: ByteCache(), transport: loader), clock: .host)
        defer { feed.invalidate() }
        let log = Log(feed)
        feed.scroll(to: 0)
        let answered = try await log.wait(for: "the four probes' answers") { events in
            Set(
                events.compactMap { event -> Int? in
                    switch event.kind {
                    case .sized(let index, _, _), .sizeProbeFailed(let index, _): return index
                    default: return nil
                    }
                }) == [0, 1, 2, 3]
        }
        guard answered else { return }
        let sized = Dictionary(
            log.all.compactMap { event -> (Int, Int64)? in
                if case .sized(let index, let bytes, let fromCache) = event.kind, !fromCache { return (index, bytes) }
                return nil
            }, uniquingKeysWith: { first, _ in first })
        #expect(sized[1] == Int64(aSize) && sized[0] == Int64(bSize) && sized[2] == Int64(bSize), "\(sized)")
        let failure = log.all.compactMap { event -> String? in
            if case .sizeProbeFailed(3, let error) = event.kind { return error }
            return nil
        }
        #expect(failure.first?.contains("404") == true, "\(failure)")
        _ = try await log.wait(for: "item 0's first frame") { events in
            events.contains { if case .firstFrame(0, _, _) = $0.kind { true } else { false } }
        }
        // The heavy item on screen: capped by its probe, its poster picture fetched, nothing of its video.
        feed.scroll(to: 1, speed: 1)
        _ = try await log.wait(for: "feed.capped of item 1") { events in
            events.contains { $0.kind == .capped(index: 1, bytes: Int64(aSize), cap: 200_000) }
        }
        let poster = await TestHTTPServer.responses(containing: "\(marker)-poster-1 ", atLeast: 1)
        #expect(!poster.isEmpty, "its poster picture was asked for")
        let before = TestHTTPServer.responses(containing: "\(marker)-1 ")
        #expect(before.count == 1 && before.allSatisfy { $0.request.hasPrefix("HEAD ") }, "\(before)")
        #expect(feed.state(of: 1) == .capped)
        // The tap: it loads and shows its first frame.
        feed.play(index: 1)
        _ = try await log.wait(for: "item 1's first frame after the tap") { events in
            events.contains { if case .firstFrame(1, _, _) = $0.kind { true } else { false } }
        }
        // The item whose probe failed loads as one without a size: scrolled to, it is asked for (and fails: 404).
        feed.scroll(to: 3, speed: 1)
        _ = try await log.wait(for: "item 3's failure") { events in
            events.contains { if case .failed(3, _) = $0.kind { true } else { false } }
        }
        #expect(TestHTTPServer.responses(containing: "\(marker)-3 ").contains { $0.request.hasPrefix("GET ") })
        let summary = feed.summary
        #expect(summary.cappedItems == 1 && summary.cappedItemsTapped == 1, "\(summary)")
        #expect(summary.sizeProbes == 4 && summary.sizeProbeFailures == 1, "\(summary)")
        // One HEAD per item, every one the loader's probe (or a preconnect's, counted apart).
        let heads = TestHTTPServer.responses(containing: marker).filter { $0.request.hasPrefix("HEAD ") }
        let statistics = loader.statistics
        #expect(statistics.probes == 4, "\(statistics)")
        #expect(heads.count == statistics.probes + statistics.preconnects, "\(heads)")
        for index in 0..<4 {
            #expect(heads.contains { $0.request.contains("\(marker)-\(index) ") }, "item \(index): \(heads)")
        }
    }

    @Test("the HEAD carries the entry's headers: a signed entry is sized, the same unsigned is a typed 401 failure")
    func signed() async throws {
        let marker = "size-probe-auth-\(UUID().uuidString)"
        let url = TestHTTPServer.url("auth/b.mp4?\(marker)")
        var signed = FeedEntry(url: url + "-signed", kind: .video)
        signed.headers = ["Authorization": "Bearer playctl-test-token"]
        var configuration = FeedConfiguration()
        configuration.audio = false
        configuration.memoryBudget = nil
        configuration.profile = .cellular
        let feed = FeedController(
            entries: [signed, FeedEntry(url: url + "-unsigned", kind: .video)], configuration: configuration,
            loading: RemoteLoading(cache: ByteCache(), transport: HTTPLoader()), clock: .host)
        defer { feed.invalidate() }
        let log = Log(feed)
        feed.scroll(to: 0)
        let size = try Self.size("b.mp4")
        _ = try await log.wait(for: "both probes' answers") { events in
            events.contains { $0.kind == .sized(index: 0, bytes: Int64(size), fromCache: false) }
                && events.contains { if case .sizeProbeFailed(1, _) = $0.kind { true } else { false } }
        }
        let failure = log.all.compactMap { event -> String? in
            if case .sizeProbeFailed(1, let error) = event.kind { return error }
            return nil
        }.first
        #expect(failure?.contains("401") == true && failure?.contains("\(marker)-unsigned") == true, "\(failure ?? "")")
        #expect(failure?.contains("playctl-test-token") == false)
        let heads = await TestHTTPServer.responses(containing: marker, atLeast: 2).filter {
            $0.request.hasPrefix("HEAD ")
        }
        #expect(heads.map(\.status).sorted() == [200, 401], "\(heads)")
    }

    @Test("a length the byte cache holds sizes the entry without a request")
    func fromCache() async throws {
        let marker = "size-probe-cache-\(UUID().uuidString)"
        let url = TestHTTPServer.url("b.mp4?\(marker)")
        let size = try Self.size("b.mp4")
        let loader = HTTPLoader()
        let loading = RemoteLoading(cache: ByteCache(), transport: loader)
        // Its bytes read once (a prefetch of its start): the cache knows its length from that response.
        let fetched = Locked<MediaError??>(nil)
        loading.prefetch(url, upTo: 1000) { error in fetched.withLock { $0 = .some(error) } }
        let deadline = Date().addingTimeInterval(30)
        while fetched.withLock({ $0 }) == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(fetched.withLock { $0 } == .some(nil))
        var configuration = FeedConfiguration()
        configuration.audio = false
        configuration.memoryBudget = nil
        configuration.profile = .cellular
        configuration.policy.cellularAutoloadByteCap = 200_000
        let feed = FeedController(
            entries: [FeedEntry(url: url, kind: .video)], configuration: configuration, loading: loading,
            clock: .host)
        defer { feed.invalidate() }
        let log = Log(feed)
        feed.scroll(to: 0)
        _ = try await log.wait(for: "the size from the cache") { events in
            events.contains { $0.kind == .sized(index: 0, bytes: Int64(size), fromCache: true) }
        }
        #expect(loader.statistics.probes == 0)
        #expect(!TestHTTPServer.responses(containing: marker).contains { $0.request.hasPrefix("HEAD ") })
    }
}

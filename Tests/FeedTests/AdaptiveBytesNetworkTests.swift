import Feed
import Foundation
import Loading
import Locking
import Playback
import PlaybackTesting
import Streaming
import Testing

/// A feed of HLS (or DASH) entries over nginx, scrolled in virtual time: the summary counts every byte an adaptive
/// item fetched (manifest, media playlists, initialization sections, segments; prefetched or played) as that item's,
/// and its bytes played are its segments up to where it was left. The entries are scripts/make-ladder-media.sh's
/// ladders under URLs of their own (symbolic links made for the run), capped to their lowest variant (the sizes
/// expected are then known), on a fresh byte cache; a tally of the test's own, over every file each item could
/// read, counts what the cache fetched, and nginx's log what it sent.
@Suite(
    "Adaptive items over nginx: the feed's summary counts their bytes", .serialized,
    .enabled(
        if: TestHTTPServer.skipReason == nil && TestHTTPServer.accessLog != nil
            && FileManager.default.fileExists(atPath: TestHTTPServer.localPath("ladder/hls-fmp4/master.m3u8"))
            && FileManager.default.fileExists(atPath: TestHTTPServer.localPath("ladder/dash/manifest.mpd")),
        "needs scripts/netns.sh and the ladder"))
struct AdaptiveBytesNetworkTests {
    /// A ladder as the test plays it (its lowest variant): the files every item that plays needs whole, and the
    /// segments of each track, 2 s each from 0.
    struct Ladder {
        var folder: String
        var manifest: String
        var base: [String]
        var tracks: [[String]]
    }

    static let hls = Ladder(
        folder: "hls-fmp4", manifest: "master.m3u8", base: ["master.m3u8", "v0/index.m3u8", "v0/init.mp4"],
        tracks: [(0..<6).map { "v0/seg00\($0).m4s" }])
    static let dash = Ladder(
        folder: "dash", manifest: "manifest.mpd", base: ["manifest.mpd", "init-stream0.m4s", "init-stream4.m4s"],
        tracks: [(1...6).map { "chunk-stream0-0000\($0).m4s" }, (1...6).map { "chunk-stream4-0000\($0).m4s" }])

    @Test("HLS: fetched = the cache's bytes of the items' URLs, unwatched = items 2-4's, played within the segments")
    func hlsFeed() async throws {
        try await Self.run(Self.hls, variant: { $0.contains("/v0/") || !$0.contains("/v") })
    }

    @Test("DASH: fetched = the cache's bytes of the items' URLs, unwatched = items 2-4's, played within the segments")
    func dashFeed() async throws {
        try await Self.run(
            Self.dash, variant: { !$0.contains("stream1") && !$0.contains("stream2") && !$0.contains("stream3") })
    }

    @Test("HLS, entries dropped behind the active one: their bytes stay in the figures")
    func droppedEntries() async throws {
        // Items 0-4 watched in turn, 1.5 s each; items 0-1 dropped from the list once item 4 is active (two kept
        // behind: the prefetch window's one, plus one).
        let entries = try await Self.run(
            Self.hls, count: 8, script: (0..<5).map { ($0, 1.5) },
            variant: { $0.contains("/v0/") || !$0.contains("/v") }, configure: { $0.paging.entriesKeptBehind = 1 })
        #expect(entries.startIndex == 2, "entries 0-1 left the list")
    }

    /// `count` entries of `ladder`, watched as `script` says (each item to its time, in order); the others never
    /// active (prepared, prefetched). `variant` tells a request of the lowest variant's files (or of no variant's).
    /// Returns the feed's entries at the end.
    @discardableResult
    static func run(
        _ ladder: Ladder, count: Int = 5, script: [(index: Int, seconds: Double)] = [(0, 3), (1, 5)],
        variant: (String) -> Bool, configure: (inout FeedConfiguration) -> Void = { _ in }
    ) async throws -> FeedEntries {
        let marker = "bytes-\(UInt32.random(in: 0...UInt32.max))"
        let names = (0..<count).map { "\(marker)-\($0)" }
        let unlink = try TestHTTPServer.linkCopies(of: "ladder/\(ladder.folder)", as: names, in: "feed-bytes-test")
        defer { unlink() }
        // Every file of the ladder, by its path in it, with its size.
        let root = TestHTTPServer.localPath("ladder/\(ladder.folder)")
        var sizes: [String: Int64] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: root) {
            let attributes = try FileManager.default.attributesOfItem(atPath: root + "/" + path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            sizes[path] = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        }
        func url(_ item: Int, _ path: String) -> String { TestHTTPServer.url("feed-bytes-test/\(names[item])/\(path)") }
        var itemOf: [String: Int] = [:]
        for item in names.indices { for path in sizes.keys { itemOf[url(item, path)] = item } }

        let clock = ManualClock()
        let loading = RemoteLoading(cache: ByteCache())
        let tally = loading.cache.tally(itemOf.keys)
        var configuration = FeedConfiguration()
        configuration.audio = false
        configuration.poolSize = 3
        configuration.memoryBudget = nil
        configuration.bandwidthEstimate = .known(2_000_000)
        // The lowest variant only (0.96 Mbit/s in HLS, 0.80 in DASH; the next is 1.6).
        configuration.preferredPeakBitRate = 1_000_000
        configure(&configuration)
        let feed = FeedController(
            entries: names.indices.map { FeedEntry(url: url($0, ladder.manifest), kind: .video) },
            configuration: configuration, loading: loading, clock: .manual(clock))
        defer { feed.invalidate() }

        /// Advances the clock 50 ms at a time (the link is real: 5 ms of real time between steps) until `index`'s
        /// player is at `seconds`; returns its time then.
        func play(_ index: Int, to seconds: Double) async throws -> Double {
            let deadline = Date().addingTimeInterval(60)
            while true {
                if let time = feed.player(for: index)?.currentTime().seconds, time >= seconds { return time }
                guard Date() < deadline else {
                    Issue.record(
                        "item \(index) did not play to \(seconds) s within 60 s (at \(feed.now) s of the clock)")
                    throw CancellationError()
                }
                try await advance()
                try await Task.sleep(nanoseconds: 5_000_000)
            }
        }
        /// Advances the clock 50 ms, failing the test when that does not return within 60 s (a player waiting for
        /// the link while the clock waits for it; the advance is then left behind).
        func advance() async throws {
            let done = Locked(false)
            Task {
                await clock.advance(bySeconds: 0.05)
                done.withLock { $0 = true }
            }
            let deadline = Date().addingTimeInterval(60)
            while !done.withLock({ $0 }) {
                guard Date() < deadline else {
                    Issue.record("the clock's advance did not return within 60 s (at \(feed.now) s of the clock)")
                    throw CancellationError()
                }
                try await Task.sleep(nanoseconds: 1_000_000)
            }
        }
        var left: [(index: Int, seconds: Double)] = []
        for (index, seconds) in script {
            feed.scroll(to: index, speed: left.isEmpty ? 0 : 1)
            left.append((index, try await play(index, to: seconds)))
        }
        let watched = Set(script.map(\.index))
        // The transfers under way end (the active item's downloads ahead, the prefetches). A prefetch the active
        // item's claim on the link holds back goes on only once a feed step lifts the claim: the clock goes on in
        // 50 ms steps meanwhile (on a loaded machine the claim can still hold when the script ends), and the last
        // item's time is read again after.
        let deadline = Date().addingTimeInterval(30)
        while loading.cache.currentStatistics.activeFetches > 0 {
            guard Date() < deadline else {
                Issue.record("transfers still under way after 30 s (at \(feed.now) s of the clock)")
                throw CancellationError()
            }
            try await advance()
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        if let last = left.last, let time = feed.player(for: last.index)?.currentTime().seconds {
            left[left.count - 1].seconds = time
        }
        let summary = feed.summary
        let fetched = tally.bytesFetched
        var byItem = [Int64](repeating: 0, count: names.count)
        for (url, bytes) in fetched { byItem[itemOf[url]!] += bytes }
        let line =
            "summary: fetched \(summary.bytesFetched), unwatched \(summary.bytesFetchedUnwatched), played "
            + "\(summary.bytesPlayed), wasted \(summary.bytesWasted); by item \(byItem); left at \(left)"
        print(line)
        #expect(summary.activations == script.count)
        #expect(summary.bytesFetched == byItem.reduce(0, +), "every byte fetched is an item's: \(line)")
        let unwatched = byItem.indices.filter { !watched.contains($0) }
        #expect(byItem[script[0].index + 1] > 0, "the item after the first was prepared: \(line)")
        #expect(summary.bytesFetchedUnwatched == unwatched.reduce(0) { $0 + byItem[$1] }, "\(line)")
        // Played: up to where each item was left, its segments started before it at most, those ended before it at
        // least (the sizes of the files; 0.2 s either side for where the first picture's time is).
        func played(_ left: Double, partly: Bool) -> Int64 {
            var bytes = ladder.base.reduce(0) { $0 + sizes[$1]! }
            for track in ladder.tracks {
                for (index, path) in track.enumerated() {
                    let start = Double(index) * 2
                    if partly ? start < left + 0.2 : start + 2 <= left - 0.2 { bytes += sizes[path]! }
                }
            }
            return bytes
        }
        let least = left.reduce(0) { $0 + played($1.seconds, partly: false) }
        let most = left.reduce(0) { $0 + played($1.seconds, partly: true) }
        #expect(summary.bytesPlayed >= least && summary.bytesPlayed <= most, "played in \(least)...\(most): \(line)")
        #expect(summary.bytesPlayed <= watched.reduce(0) { $0 + byItem[$1] })
        #expect(summary.bytesWasted == summary.bytesFetched - summary.bytesPlayed)

        // nginx sent those bytes, each response with its header (a few hundred bytes), and of the lowest variant.
        var responses: [[TestHTTPServer.LoggedResponse]] = []
        let logged = Date().addingTimeInterval(30)
        repeat {
            responses = names.map { name in TestHTTPServer.responses(containing: "/\(name)/") }
            let sent = responses.joined().reduce(0) { $0 + $1.bytesSent }
            if sent >= summary.bytesFetched { break }
            try await Task.sleep(nanoseconds: 50_000_000)
        } while Date() < logged
        for (item, logged) in responses.enumerated() {
            let sent = logged.reduce(0) { $0 + $1.bytesSent }
            #expect(
                sent >= byItem[item] && byItem[item] >= sent - 400 * Int64(logged.count),
                "item \(item): nginx sent \(sent) in \(logged.count) responses, the cache counted \(byItem[item])")
            let others = logged.map(\.request).filter { !variant($0) }
            #expect(others.isEmpty, "item \(item) read the lowest variant only: \(others)")
        }
        return feed.entries
    }
}

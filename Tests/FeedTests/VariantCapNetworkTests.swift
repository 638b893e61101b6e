import Foundation
import Loading
import Locking
import PlaybackTesting
import Streaming
import Testing

@testable import Feed

/// A feed of HLS entries over nginx's 8 Mbit/s port, with an estimate of its own (8 Mbit/s): the items decided at
/// the first scroll start on the variant the feed's cap gives (720p: 3 s / (3 s + 4 s) of 8 Mbit/s, where a lone
/// player's 0.7 of the estimate takes 1080p), and each item's first segment is fetched in one variant only: its
/// prefetch reads the feed's estimate and cap, as its player does (it read the process's shared estimate before,
/// and fetched a first segment the player did not start on). The entries are scripts/make-ladder-media.sh's fMP4
/// ladder under URLs of their own (symbolic links made for the run, removed after), so that each one's segments
/// are its own lines in nginx's log.
@Suite(
    "Adaptive items over a shaped link: the feed's variant cap", .serialized,
    .enabled(
        if: TestHTTPServer.shapedSkipReason == nil && TestHTTPServer.accessLog != nil
            && FileManager.default.fileExists(atPath: TestHTTPServer.localPath("ladder/hls-fmp4/master.m3u8")),
        "needs scripts/netns.sh with a shaped link and the ladder"))
struct VariantCapNetworkTests {
    @Test("items 0 and 1 start on 720p, each item's first segment is fetched in one variant only, none in 1080p")
    func itemsAheadFetchTheCappedVariant() async throws {
        let marker = "capped-\(UInt32.random(in: 0...UInt32.max))"
        let names = (0..<4).map { "\(marker)-\($0)" }
        let unlink = try TestHTTPServer.linkCopies(of: "ladder/hls-fmp4", as: names, in: "feed-hls-test")
        defer { unlink() }
        let entries = names.map {
            FeedEntry(url: TestHTTPServer.url("feed-hls-test/\($0)/master.m3u8", over: .mbit8), kind: .video)
        }
        let log = try await FeedNetworkRun.events(entries, estimate: 8_000_000)
        #expect(
            log.contains { if case .prepared(1, _, true) = $0.kind { true } else { false } },
            "item 1 prepared with its frame")
        _ = await TestHTTPServer.responses(containing: "\(names[1])/v", atLeast: 1, within: 30)
        for (index, name) in names.enumerated() {
            let segments = TestHTTPServer.responses(containing: name + "/v").map(\.request)
                .filter { $0.contains("/seg") }
            #expect(!segments.contains { $0.contains("\(name)/v3/") }, "item \(index), never 1080p: \(segments)")
            // The first segment in one variant only: the prefetch's is the one the player started on (its later
            // segments follow its ABR machine, within the cap).
            let firsts = segments.filter { $0.contains("/seg000") }
            let levels = Set(firsts.compactMap { request in (0...3).first { request.contains("\(name)/v\($0)/") } })
            #expect(levels.count <= 1, "item \(index): \(segments)")
            if index <= 1 {
                // Decided at the first scroll, from the feed's 8 Mbit/s: 720p (the process's estimate not read).
                #expect(levels == [2], "item \(index) starts on 720p: \(segments)")
            }
        }
    }
}

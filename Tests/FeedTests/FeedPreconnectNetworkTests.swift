import Foundation
import Loading
import PlaybackTesting
import Streaming
import Testing

@testable import Feed

/// A feed over nginx whose entries live on three servers (ports of the test server): its first scroll sends one
/// `HEAD` to each server of the window that nothing reads from yet, through the feed's loader, and none to the
/// server the active and prepared items load from.
@Suite(
    "Feed: preconnects to its entries' servers",
    .enabled(if: TestHTTPServer.skipReason == nil && TestHTTPServer.accessLog != nil, "needs scripts/netns.sh"))
struct FeedPreconnectNetworkTests {
    @Test("the first scroll preconnects to the window's other servers, once each, with the loader's HEAD")
    func firstScroll() async throws {
        let marker = "feed-preconnect-\(UUID().uuidString)"
        let links: [TestHTTPServer.Link] = [.unshaped, .unshaped, .mbit20, .mbit2, .mbit2]
        let entries = links.enumerated().map { index, link in
            FeedEntry(url: TestHTTPServer.url("a.mp4", over: link) + "?\(marker)-\(index)", kind: .video)
        }
        var configuration = FeedConfiguration()
        configuration.audio = false
        configuration.memoryBudget = nil
        configuration.bandwidthEstimate = SharedBandwidthEstimate()
        let loader = HTTPLoader()
        let feed = FeedController(
            entries: entries, configuration: configuration,
            loading: RemoteLoading(cache: ByteCache(), transport: loader), clock: .host)
        feed.scroll(to: 0)
        // The active item 0 and the prepared 1 load from port 18000; the window's 2 (18020) and 3 (18002) wait for
        // budget, and 4 shares 3's server.
        let heads = await TestHTTPServer.responses(containing: "HEAD /a.mp4?\(marker)", atLeast: 2, within: 30)
        feed.invalidate()
        #expect(heads.map(\.port).sorted() == [18002, 18020], "\(heads)")
        #expect(heads.allSatisfy { $0.status == 200 })
        #expect(heads.contains { $0.request.contains("\(marker)-2 ") })
        #expect(heads.contains { $0.request.contains("\(marker)-3 ") })
        #expect(loader.statistics.preconnects == 2)
        let connected = try #require(loader.connectedOrigins)
        #expect(connected.map(\.port).sorted().contains(18002) && connected.contains { $0.port == 18020 })
    }
}

import Foundation
import Loading
import Locking
import PlaybackTesting
import Streaming
import Testing

@testable import Feed

/// A feed of entries with two progressive renditions (scripts/make-http-media.sh's 360p and 720p copies of a.mp4)
/// over nginx's shaped ports, from a known estimate: the low copy on the 1.6 Mbit/s port, the high one at 8 Mbit/s,
/// and only the chosen file's bytes on the wire (the prepared item's and the prefetches' included). Serialized:
/// two feeds at once would share the link.
@Suite(
    "Progressive renditions over a shaped link", .serialized,
    .enabled(
        if: TestHTTPServer.shapedSkipReason == nil && TestHTTPServer.accessLog != nil,
        "needs scripts/netns.sh with a shaped link"))
struct RenditionNetworkTests {
    @Test("1.6 Mbit/s and an estimate of 1.6 Mbit/s: the 360p copy of every item, never a byte of the 720p one")
    func lowOnSlowLink() async throws {
        try await Self.run(link: .cellular3G, estimate: 1_600_000, chosen: "a-360p.mp4", other: "a-720p.mp4")
    }

    @Test("8 Mbit/s and an estimate of 8 Mbit/s: the 720p copy of every item, never a byte of the 360p one")
    func highOnFastLink() async throws {
        try await Self.run(link: .mbit8, estimate: 8_000_000, chosen: "a-720p.mp4", other: "a-360p.mp4")
    }

    static func run(link: TestHTTPServer.Link, estimate: Double, chosen: String, other: String) async throws {
        let marker = "rendition-\(UInt32.random(in: 0...UInt32.max))"
        let entries = (0..<4).map { index in
            FeedEntry(renditions: [
                ProgressiveRendition(
                    url: TestHTTPServer.url("renditions/a-360p.mp4?\(marker)-\(index)", over: link), bitrate: 630_000,
                    width: 640, height: 360),
                ProgressiveRendition(
                    url: TestHTTPServer.url("renditions/a-720p.mp4?\(marker)-\(index)", over: link),
                    bitrate: 1_680_000, width: 1280, height: 720),
            ])
        }
        let log = try await FeedNetworkRun.events(entries, estimate: estimate)
        #expect(log.contains { if case .started(0, _, _) = $0.kind { true } else { false } }, "\(log)")
        var choices: [Int: ProgressiveRenditionChoice] = [:]
        for event in log { if case .rendition(let index, let choice) = event.kind { choices[index] = choice } }
        #expect(choices[0] != nil && choices[1] != nil, "the active and the prepared items chose")
        for (index, choice) in choices {
            #expect(choice.rendition.url.contains(chosen), "item \(index): \(choice.rendition.url)")
            #expect(choice.reason == .initial && choice.estimate == estimate && choice.estimateSource == .shared)
        }
        // nginx logs a response when it ends (the feed's transfers were cut when it was invalidated): the active
        // and the prepared items' once they are there.
        for index in 0..<2 {
            let logged = await TestHTTPServer.responses(containing: "\(marker)-\(index) ", atLeast: 1, within: 30)
            #expect(
                logged.contains { $0.request.contains("\(chosen)?\(marker)-\(index) ") }, "item \(index): \(logged)")
        }
        let responses = TestHTTPServer.responses(containing: marker)
        let requested = Set(responses.map { $0.request })
        #expect(!requested.contains { $0.contains(other) }, "no byte of the other rendition: \(requested)")
        // Every item that was fetched was fetched from its chosen file only.
        for response in responses {
            guard let index = (0..<4).first(where: { response.request.contains("\(marker)-\($0) ") }) else { continue }
            #expect(choices[index] != nil, "item \(index) fetched before its choice: \(response.request)")
        }
    }
}

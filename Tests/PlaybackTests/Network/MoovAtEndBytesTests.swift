import Foundation
import Loading
import MediaIO
import PlaybackTesting
import Testing

/// An MP4 whose index (moov) is at its end: the demuxer reads the start, jumps to the tail for the index, then comes
/// back for the media. The transfer from the start goes on meanwhile instead of being cut off and asked again,
/// so the file crosses the wire about once (it was 1.12x: the first transfer's bytes in flight were paid twice).
@Suite(
    "An index at the file's end: the bytes cross the wire once",
    .enabled(if: TestHTTPServer.skipReason == nil && TestHTTPServer.accessLog != nil, "needs scripts/netns.sh"))
struct MoovAtEndBytesTests {
    @Test("every packet of moov-end.mp4 read over 8 Mbit/s: at most 1.02x the file sent by the server")
    func onceAcrossTheWire() async throws {
        let local = TestHTTPServer.localPath("moov-end.mp4")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: local)[.size] as? Int)
        let marker = "moov-end-\(UUID().uuidString.prefix(8))"
        let cache = ByteCache()
        let source = RemoteByteSource(
            url: TestHTTPServer.url("moov-end.mp4?\(marker)", over: .mbit8Alone), cache: cache)
        defer { source.close() }
        let demuxer = try Demuxer(url: local, source: source)
        let packet = Packet()
        var packets = 0
        while try demuxer.read(into: packet) { packets += 1 }
        let whole = try Demuxer(url: local)
        var expected = 0
        while try whole.read(into: packet) { expected += 1 }
        #expect(packets == expected)
        let responses = await TestHTTPServer.responses(containing: marker, atLeast: 2)
        let sent = responses.reduce(Int64(0)) { $0 + $1.bytesSent }
        #expect(
            Double(sent) <= 1.02 * Double(size), "\(sent) bytes sent for a \(size)-byte file: \(responses)")
        #expect(cache.currentStatistics.bytesReceived <= Int64(Double(size) * 1.02))
    }
}

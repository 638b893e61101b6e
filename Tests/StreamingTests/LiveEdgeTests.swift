import Testing

@testable import Streaming

/// Where a live play starts: the last segment that begins at least the offset before the playlist's end.
@Suite("Live edge")
struct LiveEdgeTests {
    /// Ten 2 s segments (0-20 s), target duration 2 s, no end.
    static let playlist = MediaPlaylist(
        kind: .live, targetDuration: 2,
        segments: (0..<10).map { Segment(url: "s\($0).ts", duration: 2, start: Double($0) * 2, sequence: $0) },
        hasEnd: false)

    @Test("by default three target durations before the end (RFC 8216 6.3.3); a configured offset moves it")
    func offsets() {
        #expect(LivePlaylist.recommendedOffset(of: Self.playlist) == 6)
        #expect(LivePlaylist.edgeIndex(of: Self.playlist) == 7, "starts at 14 s: 6 s before the end")
        #expect(LivePlaylist.edgeIndex(of: Self.playlist, offset: 4) == 8)
        #expect(LivePlaylist.edgeIndex(of: Self.playlist, offset: 5) == 7, "the last that starts 5 s or more before")
        #expect(LivePlaylist.edgeIndex(of: Self.playlist, offset: 0) == 9, "the last segment")
        #expect(LivePlaylist.edgeIndex(of: Self.playlist, offset: 100) == 0, "further back than listed: the first")
        #expect(LivePlaylist.edgeIndex(of: Self.playlist, offset: -1) == 7, "nonsense: the recommendation")
        #expect(LivePlaylist.edgeIndex(of: Self.playlist, offset: .nan) == 7)
    }
}

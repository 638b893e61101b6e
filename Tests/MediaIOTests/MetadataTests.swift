import Foundation
import MediaIO
import PlaybackTesting
import Testing

@Suite("Tags, chapters and artwork")
struct MetadataTests {
    @Test("MP3, FLAC and M4A: the tags, the cover as artwork (not a video track)", arguments: ["mp3", "flac", "m4a"])
    func taggedAudio(format: String) throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try TaggedAudio.make("tagged.\(format)", in: directory)
        let demuxer = try Demuxer(url: path)
        #expect(demuxer.videoTrack == nil, "the cover is not a video")
        let metadata = demuxer.metadata
        #expect(
            metadata.title == "Test Title" && metadata.artist == "Test Artist" && metadata.albumName == "Test Album")
        let artwork = try #require(metadata.artwork)
        #expect(artwork.bytes == (try MediaFixtures.bytes("still.jpg")))
        #expect((artwork.width, artwork.height) == (320, 240))
        #expect(metadata.commonMetadata.map(\.commonKey).contains(.artwork))
    }

    @Test("chapters of an M4A: start, end and title")
    func chapters() throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let metadata = try Demuxer(url: try TaggedAudio.make("chaptered.m4a", in: directory)).metadata
        #expect(metadata.chapters.map(\.title) == ["One", "Two"])
        #expect(metadata.chapters.map { $0.start.seconds } == [0, 1])
        #expect(metadata.chapters.map { $0.end.seconds } == [1, 2])
    }
}

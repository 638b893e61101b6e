import Foundation
import PlaybackTesting
import Posters
import Testing

@Suite("Posters of audio files")
struct ArtworkPosterTests {
    @Test("an audio file's poster is its cover")
    func cover() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try TaggedAudio.make("cover.mp3", in: directory)
        let poster = try await PosterPipeline().poster(for: PosterRequest(source: path, width: 160))
        let still = try await PosterPipeline().poster(
            for: PosterRequest(source: MediaFixtures.path("still.jpg"), width: 160))
        #expect(poster.image == still.image)
    }

    @Test("an audio file without a cover has no poster: a typed error")
    func noCover() async throws {
        await #expect(throws: MediaError.self) {
            _ = try await PosterPipeline().poster(for: PosterRequest(source: MediaFixtures.path("tone.m4a")))
        }
    }
}

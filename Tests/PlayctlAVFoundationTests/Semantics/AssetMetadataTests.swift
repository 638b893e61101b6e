import AVFoundation
import PlaybackTesting
import Testing

/// `AVAsset.commonMetadata` and `metadata` from the container's tags and cover, as an audio app reads them.
@Suite("AVAsset metadata")
struct AssetMetadataTests {
    @Test("an M4A's tags and cover: common items by identifier, every tag by key, artwork as the JPEG's bytes")
    func taggedAudio() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let asset = AVURLAsset(url: URL(fileURLWithPath: try TaggedAudio.make("tagged.m4a", in: directory)))
        let (common, all) = try await asset.load(.commonMetadata, .metadata)

        #expect(
            common.map(\.identifier) == [
                .commonIdentifierTitle, .commonIdentifierArtist, .commonIdentifierAlbumName,
                .commonIdentifierCreationDate, .commonIdentifierArtwork,
            ])
        let title = AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierTitle)
        #expect(title.first?.stringValue == "Test Title" && title.first?.commonKey == .commonKeyTitle)
        #expect((title.first?.value as? NSString).map { String($0) } == "Test Title")
        #expect(title.first?.time == .invalid)
        let artwork = try #require(
            AVMetadataItem.metadataItems(from: common, withKey: AVMetadataKey.commonKeyArtwork, keySpace: .common).first
        )
        #expect(artwork.dataValue == Data(try MediaFixtures.bytes("still.jpg")))
        #expect(artwork.dataType == "com.apple.metadata.datatype.JPEG" && artwork.stringValue == nil)
        #expect(
            AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierCreationDate)
                .first?.stringValue == "2024")

        // Every tag, under FFmpeg's names, with the common key where one applies; then the artwork.
        let album = AVMetadataItem.metadataItems(from: all, withKey: "album", keySpace: .playctlContainerTags)
        #expect(album.count == 1 && album[0].stringValue == "Test Album" && album[0].commonKey == .commonKeyAlbumName)
        #expect(album[0].identifier?.rawValue == "playctl.tags/album")
        #expect(all.contains { ($0.key as? NSString).map { String($0) } == "encoder" })
        #expect(all.last?.commonKey == .commonKeyArtwork)
        #expect(asset.commonMetadata.count == 5, "the synchronous getter reads the same load")
    }

    @Test("a clip without tags has no common metadata; an ISO 8601 date reads as a Date")
    func untaggedClipAndDates() async throws {
        let asset = AVURLAsset(url: Clips.url("a.mp4"))
        #expect(try await asset.load(.commonMetadata).isEmpty)
        #expect(try await asset.load(.metadata).map { $0.key as? NSString }.contains("encoder"))
        #expect(AVAsset(url: URL(fileURLWithPath: "/nonexistent.mp4")).commonMetadata.isEmpty)

        // The clip re-muxed by ffmpeg with a creation time.
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dated = directory.appendingPathComponent("dated.mp4").path
        let muxed = try await ProcessRunner.run(
            "/usr/bin/env",
            [
                "ffmpeg", "-v", "error", "-i", MediaFixtures.path("a.mp4"), "-c", "copy", "-metadata",
                "creation_time=2024-05-01T12:00:00.000000Z", dated,
            ], standardOutput: .capture, standardError: .capture, timeout: 60)
        try #require(muxed.succeeded, "ffmpeg: \(String(decoding: muxed.errorOutput, as: UTF8.self))")
        let common = try await AVURLAsset(url: URL(fileURLWithPath: dated)).load(.commonMetadata)
        let date = try #require(common.first { $0.commonKey == .commonKeyCreationDate })
        #expect(date.dateValue == Date(timeIntervalSince1970: 1_714_564_800), "\(date.stringValue ?? "none")")
    }
}

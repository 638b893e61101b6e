import Foundation
import Locking
import Playback
import PlaybackTesting
import Testing

@Suite("Encrypted items")
struct EncryptedItemTests {
    /// Plays `item` to its end or failure under the untimed clock; the md5 of every frame shown.
    static func play(_ item: PlayerItem) async throws -> [String] {
        let player = Player(clock: .untimed, audio: true)
        defer { player.invalidate() }
        let md5s = Locked<[String]>([])
        player.add(VideoSink { frame in md5s.withLock { $0.append(frame.md5()) } })
        let events = player.events()
        player.replaceCurrentItem(with: item)
        player.play()
        _ = try await itemEnd(in: events, of: item.url)
        await player.callbacksDelivered()
        return md5s.withLock { $0 }
    }

    @Test("with its key an encrypted item plays every frame; without, it fails with .encrypted and shows none")
    func decryptionKey() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try EncryptedMedia.make(in: directory)
        let keyed = PlayerItem(url: path)
        keyed.decryptionKey = EncryptedMedia.key
        #expect(try await Self.play(keyed) == (try MediaFixtures.referenceMD5s("a.mp4")))
        let locked = PlayerItem(url: path)
        let shown = try await Self.play(locked)
        #expect(shown.isEmpty, "no noise on screen")
        #expect(locked.error?.kind == .encrypted)
        #expect(locked.error?.url == path)
    }
}

@Suite("Item metadata")
struct ItemMetadataTests {
    @Test("a loaded item has the file's tags and cover under the common keys")
    func commonMetadata() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let item = PlayerItem(url: try TaggedAudio.make("tagged.m4a", in: directory))
        _ = try await EncryptedItemTests.play(item)
        let keys = item.commonMetadata.map(\.commonKey)
        #expect(keys == [.title, .artist, .albumName, .creationDate, .artwork])
        #expect(item.commonMetadata.first?.stringValue == "Test Title")
        #expect(item.commonMetadata.last?.dataValue == (try MediaFixtures.bytes("still.jpg")))
        #expect(item.metadata.chapters.count == 2)
    }
}

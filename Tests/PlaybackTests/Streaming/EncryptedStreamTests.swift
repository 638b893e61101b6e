import Foundation
import Loading
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

@testable import Streaming

/// The AES-128 ladder (`hls-aes/`, scripts/make-ladder-media.sh, served by nginx through scripts/netns.sh) played
/// through the stream session: segments decrypted as they are read, every frame against ffmpeg's decode of the
/// clear encode; a wrong key fails the item with an error naming it; seeks land inside encrypted segments.
@Suite(
    "Adaptive streaming: AES-128 segments", .serialized,
    .enabled(if: TestHTTPServer.skipReason == nil && LadderMedia.skipReason == nil, "needs scripts/netns.sh"))
struct EncryptedStreamTests {
    @Test("360p (an IV from each segment's sequence number) plays to the end, frame for frame as ffmpeg decodes it")
    func implicitIV() async throws {
        let reference = try await LadderReference.md5s(rung: 0)
        let item = PlayerItem(url: LadderMedia.url("hls-aes/master.m3u8"), loading: RemoteLoading(cache: ByteCache()))
        item.preferredPeakBitRate = 1_200_000
        let (frames, trace) = try await AdaptivePlaybackTests.play(item)
        #expect(item.status == .readyToPlay, "\(String(describing: item.error)) \(trace.suffix(5))")
        #expect(frames.count == 360, "\(trace.suffix(5))")
        #expect(frames.map(\.md5) == Array(reference.prefix(frames.count)))
        #expect(frames.allSatisfy { $0.width == 640 }, "v0 only")
    }

    @Test(
        "fMP4 under AES-128: an initialization section declared after the key is decrypted, one before it is not",
        arguments: ["index.m3u8", "index-clear-map.m3u8"])
    func encryptedInitialization(playlist: String) async throws {
        // hls-aes-fmp4/ (scripts/make-ladder-media.sh): hls-fmp4/v0 encrypted by openssl; ffmpeg decodes both
        // playlists to the clear rendition's frames.
        let reference = try await LadderReference.md5s(rung: 0)
        let item = PlayerItem(
            url: LadderMedia.url("hls-aes-fmp4/\(playlist)"), loading: RemoteLoading(cache: ByteCache()))
        let (frames, trace) = try await AdaptivePlaybackTests.play(item)
        #expect(item.status == .readyToPlay, "\(String(describing: item.error)) \(trace.suffix(5))")
        #expect(frames.count == 360, "\(trace.suffix(5))")
        #expect(frames.map(\.md5) == Array(reference.prefix(frames.count)), "bit-exact with the clear encode")
    }

    @Test("the key is fetched once for the six segments (and the downloads ahead)")
    func keyOnce() async throws {
        // A key of a name of its own: other suites running meanwhile read the ladder's key.bin.
        let reference = try await LadderReference.md5s(rung: 0)
        let (playlist, key) = try Self.playlist(withKey: LadderMedia.key)
        defer { Self.remove(playlist, key) }
        let item = PlayerItem(url: LadderMedia.url(playlist), loading: RemoteLoading(cache: ByteCache()))
        let (frames, trace) = try await AdaptivePlaybackTests.play(item)
        #expect(frames.count == 360, "\(String(describing: item.error)) \(trace.suffix(5))")
        #expect(frames.map(\.md5) == Array(reference.prefix(frames.count)))
        let name = String(key.split(separator: "/").last ?? "")
        #expect(TestHTTPServer.responses(containing: name).count == 1)
    }

    @Test("720p (explicit IVs), its media playlist alone, plays to the end frame for frame")
    func explicitIV() async throws {
        let reference = try await LadderReference.md5s(rung: 2)
        let item = PlayerItem(
            url: LadderMedia.url("hls-aes/v1/index.m3u8"), loading: RemoteLoading(cache: ByteCache()))
        let (frames, trace) = try await AdaptivePlaybackTests.play(item)
        #expect(item.status == .readyToPlay, "\(String(describing: item.error)) \(trace.suffix(5))")
        #expect(frames.count == 360, "\(trace.suffix(5))")
        #expect(frames.map(\.md5) == Array(reference.prefix(frames.count)))
        #expect(frames.allSatisfy { $0.width == 1280 })
    }

    @Test("a 720p play capped mid-way switches to 360p at a segment boundary: each variant's key, bit-exact both sides")
    func switchDown() async throws {
        let high = try await LadderReference.md5s(rung: 2)
        let low = try await LadderReference.md5s(rung: 0)
        // A link known to be fast: the session starts on the highest rung (v1, 720p).
        let item = PlayerItem(url: LadderMedia.url("hls-aes/master.m3u8"), loading: RemoteLoading(cache: ByteCache()))
        item.bandwidthEstimate = .known(100_000_000)
        item.preferredForwardBufferDuration = 2
        let (frames, trace) = try await AdaptivePlaybackTests.play(item) { _, count in
            if count == 45 { item.preferredPeakBitRate = 1_200_000 }
        }
        #expect(frames.count == 360, "\(String(describing: item.error)) \(trace.suffix(5))")
        #expect(frames.first?.width == 1280)
        let switchAt = try #require(frames.firstIndex { $0.width == 640 }, "it switched")
        #expect(switchAt % 60 == 0, "at a segment boundary: frame \(switchAt)")
        #expect(frames[switchAt...].allSatisfy { $0.width == 640 })
        #expect(frames.map(\.md5) == Array(high[..<switchAt]) + Array(low[switchAt...]), "bit-exact on both sides")
    }

    /// Writes a copy of `hls-aes/v0/index.m3u8` whose key URI is a new file holding `key` into the served folder;
    /// returns the playlist's and the key's names (unique to this run).
    static func playlist(withKey key: [UInt8]) throws -> (playlist: String, key: String) {
        let tag = "test-key-\(UUID().uuidString.prefix(8))"
        let folder = LadderMedia.path("hls-aes/v0")
        let original = try String(contentsOfFile: "\(folder)/index.m3u8", encoding: .utf8)
        try #require(original.contains("URI=\"key.bin\""), "the ladder's playlist names its key key.bin")
        try Data(key).write(to: URL(fileURLWithPath: "\(folder)/\(tag).bin"))
        try original.replacingOccurrences(of: "URI=\"key.bin\"", with: "URI=\"\(tag).bin\"")
            .write(toFile: "\(folder)/\(tag).m3u8", atomically: true, encoding: .utf8)
        return ("hls-aes/v0/\(tag).m3u8", "hls-aes/v0/\(tag).bin")
    }

    @Test("a key that is not 16 bytes fails the item with an error naming the key, no frame shown")
    func shortKey() async throws {
        let (playlist, key) = try Self.playlist(withKey: Array(LadderMedia.key.prefix(15)))
        defer { Self.remove(playlist, key) }
        let item = PlayerItem(url: LadderMedia.url(playlist), loading: RemoteLoading(cache: ByteCache()))
        let (frames, trace) = try await AdaptivePlaybackTests.play(item)
        #expect(item.status == .failed, "\(trace.suffix(5))")
        let error = try #require(item.error)
        #expect(error.kind == .malformedManifest && error.url == LadderMedia.url(key), "\(error)")
        #expect(error.reason.contains("15"), "\(error)")
        #expect(frames.isEmpty)
    }

    @Test("a wrong key fails the item with .decodeFailed naming the segment (its padding is not PKCS#7)")
    func wrongKey() async throws {
        let (playlist, key) = try Self.playlist(withKey: LadderMedia.key.map { $0 ^ 0x5a })
        defer { Self.remove(playlist, key) }
        let item = PlayerItem(url: LadderMedia.url(playlist), loading: RemoteLoading(cache: ByteCache()))
        let (frames, trace) = try await AdaptivePlaybackTests.play(item)
        #expect(item.status == .failed, "\(trace.suffix(5))")
        let error = try #require(item.error)
        #expect(error.kind == .decodeFailed, "\(error)")
        #expect(error.url.hasPrefix(LadderMedia.url("hls-aes/v0/")) && error.url.hasSuffix(".ts"), "\(error)")
        #expect(frames.isEmpty)
    }

    static func remove(_ names: String...) {
        for name in names { try? FileManager.default.removeItem(atPath: LadderMedia.path(name)) }
    }

    @Test("exact seeks into encrypted segments land on the frame ffmpeg decodes at that time")
    func exactSeeks() async throws {
        let reference = try await LadderReference.md5s(rung: 0)
        let clock = ManualClock()
        let player = Player(clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let layer = PlayerLayer(player: player)
        let item = PlayerItem(url: LadderMedia.url("hls-aes/master.m3u8"), loading: RemoteLoading(cache: ByteCache()))
        item.preferredPeakBitRate = 1_200_000
        player.replaceCurrentItem(with: item)
        await clock.advance(by: .zero)
        // 25 ms into each frame (see AdaptivePlaybackTests.exactSeeks).
        for index in [225, 3, 357, 120, 61, 59, 60] {
            let target = Double(index) / 30 + 0.025
            #expect(await player.seek(to: MediaTime(seconds: target), toleranceBefore: .zero, toleranceAfter: .zero))
            let shown = layer.currentFrame?.md5()
            #expect(
                shown == reference[index],
                "at \(target) s (frame \(index)): frame \(shown.flatMap { reference.firstIndex(of: $0) }.map(String.init) ?? "none")"
            )
        }
        #expect(item.error == nil)
    }

    @Test("an encrypted segment read at any byte: its length, then each offset, is the clear segment's bytes")
    func byteSeeks() throws {
        let folder = LadderMedia.path("hls-aes/v1")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ts") }.sorted()
        let name = try #require(names.dropFirst().first, "a segment after the first")
        let clear = try [UInt8](Data(contentsOf: URL(fileURLWithPath: LadderMedia.path("hls-aes/clear/v1/\(name)"))))
        let playlist = try String(contentsOfFile: "\(folder)/index.m3u8", encoding: .utf8)
        // Its explicit IV: on the key line before the segment's line.
        let lines = playlist.split(separator: "\n").map(String.init)
        let at = try #require(lines.firstIndex(of: name))
        let keyLine = try #require(lines[..<at].last { $0.hasPrefix("#EXT-X-KEY:") })
        let hex = try #require(keyLine.range(of: "IV=0x").map { String(keyLine[$0.upperBound...].prefix(32)) })
        let iv = stride(from: 0, to: 32, by: 2).compactMap {
            UInt8(String(hex[hex.index(hex.startIndex, offsetBy: $0)...].prefix(2)), radix: 16)
        }
        try #require(iv.count == 16)
        let loading = RemoteLoading(cache: ByteCache())
        let url = LadderMedia.url("hls-aes/v1/\(name)")
        let source = loading.source(url, priority: .playback)
        defer { source.close() }
        let part = try DecryptedPart(source: source, url: url, range: nil, key: LadderMedia.key, iv: iv)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4000, alignment: 1)
        defer { buffer.deallocate() }
        func read(_ count: Int) throws -> [UInt8] {
            var out: [UInt8] = []
            while out.count < count {
                let n = try part.read(
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(4000, count - out.count)]))
                if n == 0 { break }
                out += buffer[0..<n]
            }
            return out
        }
        #expect(try read(100) == Array(clear.prefix(100)))
        #expect(try part.plaintextLength() == Int64(clear.count))
        let position = part.position
        #expect(position == 100, "finding the length keeps the position")
        #expect(try read(50) == Array(clear[100..<150]))
        let length = clear.count
        for offset in [0, 1, 15, 16, 17, 4099, length / 2, length - 17, length - 16, length - 1] {
            try part.seek(to: Int64(offset))
            #expect(try read(40) == Array(clear[offset..<min(offset + 40, length)]), "at \(offset)")
        }
        try part.seek(to: Int64(length))
        #expect(try read(10).isEmpty, "at the end")
        try part.seek(to: Int64(length + 100))
        #expect(try read(10).isEmpty, "past the end")
        try part.seek(to: 3)
        #expect(try read(length) == Array(clear.dropFirst(3)), "read to the end after all that")
    }
}

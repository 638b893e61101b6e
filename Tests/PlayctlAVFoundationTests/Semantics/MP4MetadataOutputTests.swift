import Foundation
import Locking
import Playback
import PlaybackTesting
import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

/// `AVPlayerItemMetadataOutput` with MP4 timed metadata, under a manual clock: a QuickTime timed metadata track
/// (`mebx`, `Media/tracks/mebx.mp4`: samples at 0, 1 and 3 s) gives groups of `mdta` items, as AVFoundation reads
/// what AVAssetWriter wrote; the `emsg` boxes of a fragmented MP4 (`Media/tracks/emsg.mp4`) give ID3 items for the
/// ID3 scheme and one `playctl.emsg` item for another scheme.
@Suite("AVPlayerItemMetadataOutput: MP4 timed metadata")
struct MP4MetadataOutputTests {
    typealias Delegate = MetadataOutputTests.Delegate

    /// The groups `delegate` got from `path` played for `seconds`, with `identifiers`.
    static func groups(
        _ path: String, seconds: Double, identifiers: [String]? = nil
    ) async throws
        -> (Delegate, [AVTimedMetadataGroup])
    {
        let driver = ClockDriver()
        let delegate = Delegate()
        try await driver.run {
            let item = AVPlayerItem(url: URL(fileURLWithPath: path))
            let output = AVPlayerItemMetadataOutput(identifiers: identifiers)
            output.setDelegate(delegate, queue: delegate.queue)
            item.add(output)
            let player = AVPlayer(playerItem: item)
            player.play()
            await driver.advance(by: seconds)
            player.pause()
        }
        _ = delegate.delivered
        return (delegate, delegate.groups.withLock { $0 })
    }

    @Test("mebx: a group per sample at its time and duration, an mdta item per boxed item with its typed value")
    func boxedMetadata() async throws {
        let (delegate, groups) = try await Self.groups(TrackClips.path("mebx.mp4"), seconds: 2)
        #expect(delegate.delivered == [.groups([0]), .groups([1])], "the sample at 3 s is not reached in 2 s")
        try #require(groups.count == 2)
        #expect(groups.map(\.timeRange.duration.seconds) == [1, 1.5])
        let location = try #require(groups[0].items.first)
        #expect(location.identifier?.rawValue == "mdta/com.apple.quicktime.location.ISO6709")
        #expect(
            location.keySpace == .quickTimeMetadata && location.key as? String == "com.apple.quicktime.location.ISO6709"
        )
        #expect(location.stringValue == "+48.8584+002.2945/")
        #expect(location.dataType == "com.apple.metadata.datatype.UTF-8")
        #expect(location.time.seconds == 0 && location.duration.seconds == 1)
        #expect(
            groups[1].items.map { $0.identifier?.rawValue } == ["mdta/com.example.score", "mdta/com.example.speed"])
        #expect(groups[1].items.map { $0.numberValue?.doubleValue } == [42, 1.5])
    }

    @Test("mebx with identifiers: only the location items, their groups alone")
    func identifiers() async throws {
        let (delegate, groups) = try await Self.groups(
            TrackClips.path("mebx.mp4"), seconds: 4, identifiers: ["mdta/com.apple.quicktime.location.ISO6709"])
        #expect(delegate.delivered == [.groups([0]), .groups([3])])
        #expect(groups.map { $0.items.compactMap(\.stringValue) } == [["+48.8584+002.2945/"], ["+35.6586+139.7454/"]])
    }

    @Test("emsg: ID3 events as id3 items; another scheme's as one playctl.emsg item, its message as data")
    func eventMessages() async throws {
        let (delegate, groups) = try await Self.groups(TrackClips.path("emsg.mp4"), seconds: 4)
        #expect(delegate.delivered == [.groups([0.5]), .groups([1.5]), .groups([2.5]), .groups([3.5])])
        try #require(groups.count == 4)
        #expect(groups[0].items.first?.identifier == .id3MetadataUserText)
        #expect(groups[0].items.first?.stringValue == "Chapter 1")
        #expect(groups[1].items.first?.identifier == .id3MetadataTitleDescription)
        #expect(!groups[1].timeRange.duration.isValid, "duration 0xFFFFFFFF: unknown")
        let scte = try #require(groups[2].items.first)
        #expect(scte.keySpace == .playctlEventMessage && scte.key as? String == "urn:scte:scte35:2013:bin")
        #expect(scte.dataValue.map(Array.init) == [0xFC, 0x30, 0x11, 0x00, 0xFF, 0x00])
        #expect(scte.extraAttributes?[.info] as? String == "1")
        #expect(groups[2].timeRange.duration.seconds == 2)
    }
}

import Foundation
import Locking
import Playback
import PlaybackTesting
import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

/// `AVPlayerItemMetadataOutput` as Apple documents it, under a manual clock: its push delegate gets each timed
/// metadata sample of the item (ID3 in MPEG-TS: `Media/id3.ts`, samples at 0.5, 1.5, 2.5 and 3.5 s) as an
/// `AVTimedMetadataGroup` on the delegate's queue when the playhead reaches it; a seek flushes the sequence first;
/// `init(identifiers:)` keeps only those items.
@Suite("AVPlayerItemMetadataOutput")
struct MetadataOutputTests {
    final class Delegate: NSObject, AVPlayerItemMetadataOutputPushDelegate, @unchecked Sendable {
        enum Entry: Equatable {
            case groups([Double])
            case flushed
        }
        let entries = Locked<[Entry]>([])
        let groups = Locked<[AVTimedMetadataGroup]>([])
        let queue = DispatchQueue(label: "metadata-delegate")
        let onQueue = Locked(true)

        func metadataOutput(
            _ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup],
            from track: AVPlayerItemTrack?
        ) {
            onQueue.withLock { $0 = $0 && DispatchQueue.getSpecific(key: Self.key) == true }
            self.groups.withLock { $0 += groups }
            entries.withLock { $0.append(.groups(groups.map(\.timeRange.start.seconds))) }
        }

        func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) {
            entries.withLock { $0.append(.flushed) }
        }

        static let key = DispatchSpecificKey<Bool>()
        override init() {
            super.init()
            queue.setSpecific(key: Self.key, value: true)
        }

        /// What reached the delegate, once its queue ran what was handed to it.
        var delivered: [Entry] { queue.sync { entries.withLock { $0 } } }
    }

    @Test(
        "each sample a group with an item per ID3 frame, on the delegate's queue, at its time; a seek back flushes, then again"
    )
    func groups() async throws {
        let driver = ClockDriver()
        let delegate = Delegate()
        try await driver.run {
            let item = AVPlayerItem(url: URL(fileURLWithPath: TrackClips.path("id3.ts")))
            let output = AVPlayerItemMetadataOutput(identifiers: nil)
            output.setDelegate(delegate, queue: delegate.queue)
            #expect(output.delegate === delegate && output.delegateQueue === delegate.queue)
            item.add(output)
            let player = AVPlayer(playerItem: item)
            player.play()
            await driver.advance(by: 1.0)
            #expect(delegate.delivered == [.groups([0.5])])
            await driver.advance(by: 2.0)
            #expect(delegate.delivered == [.groups([0.5]), .groups([1.5]), .groups([2.5])])
            _ = await player.seek(
                to: CMTime(seconds: 1, preferredTimescale: 600), toleranceBefore: .zero, toleranceAfter: .zero)
            await driver.advance(by: 3.0)
            #expect(
                delegate.delivered == [
                    .groups([0.5]), .groups([1.5]), .groups([2.5]), .flushed, .groups([1.5]), .groups([2.5]),
                    .groups([3.5]),
                ])
            #expect(delegate.onQueue.withLock { $0 })
            let all = delegate.groups.withLock { $0 }
            let first = try #require(all.first?.items.first)
            #expect(first.identifier == .id3MetadataUserText && first.keySpace == .id3)
            #expect(first.stringValue == "Chapter 1")
            #expect(first.extraAttributes?[.info] as? String == "title")
            #expect(first.time == all[0].timeRange.start && first.time.seconds == 0.5)
            #expect(!first.duration.isValid, "MPEG-TS does not give a sample's duration")
            let second = all[1].items
            #expect(second.map(\.identifier) == [.id3MetadataTitleDescription, .id3MetadataUserURL])
            #expect(second[0].commonKey == .commonKeyTitle && second[0].stringValue == "Second")
            let priv = try #require(all[2].items.first)
            #expect(priv.identifier == .id3MetadataPrivate && priv.stringValue == nil)
            #expect(priv.dataValue.map(Array.init) == [0, 0, 0, 0, 0, 5, 0x6F, 0xB8])
            #expect(priv.extraAttributes?[.info] as? String == "com.apple.streaming.transportStreamTimestamp")
            player.pause()
        }
    }

    @Test("init(identifiers:) keeps those items; a group left empty is not delivered; a removed output gets nothing")
    func identifiers() async throws {
        let driver = ClockDriver()
        let delegate = Delegate()
        try await driver.run {
            let item = AVPlayerItem(url: URL(fileURLWithPath: TrackClips.path("id3.ts")))
            let output = AVPlayerItemMetadataOutput(identifiers: [AVMetadataIdentifier.id3MetadataUserText.rawValue])
            output.setDelegate(delegate, queue: delegate.queue)
            item.add(output)
            let player = AVPlayer(playerItem: item)
            player.play()
            await driver.advance(by: 3.0)
            #expect(delegate.delivered == [.groups([0.5])], "only the first sample has a TXXX frame before 3 s")
            item.remove(output)
            await driver.advance(by: 1.5)
            #expect(delegate.delivered == [.groups([0.5])])
            player.pause()
        }
    }
}

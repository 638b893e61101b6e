import Foundation
import Locking
import PlaybackTesting
import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

/// `AVPlayerItemLegibleOutput` as Apple documents it, under a manual clock: its push delegate gets the text on screen
/// each time it changes, on the delegate's queue (Media/tracks/tracks.mp4, its French subtitles selected).
@Suite("AVPlayerItemLegibleOutput")
struct LegibleOutputTests {
    final class Delegate: NSObject, AVPlayerItemLegibleOutputPushDelegate, @unchecked Sendable {
        let changes = Locked<[(texts: [String], time: Double)]>([])
        let queue = DispatchQueue(label: "legible-delegate")

        func legibleOutput(
            _ output: AVPlayerItemLegibleOutput, didOutputAttributedStrings strings: [NSAttributedString],
            nativeSampleBuffers nativeSamples: [Any], forItemTime itemTime: CMTime
        ) {
            changes.withLock { $0.append((strings.map(\.string), itemTime.seconds)) }
        }

        /// What reached the delegate, once its queue ran what was handed to it.
        var delivered: [(texts: [String], time: Double)] { queue.sync { changes.withLock { $0 } } }
    }

    @Test(
        "each change of the text shown: the cue's text at its start, nothing at its end; a removed output gets nothing")
    func changes() async throws {
        let driver = ClockDriver()
        let delegate = Delegate()
        try await driver.run {
            let item = AVPlayerItem(url: URL(fileURLWithPath: TrackClips.path("tracks.mp4")))
            let output = AVPlayerItemLegibleOutput()
            output.setDelegate(delegate, queue: delegate.queue)
            #expect(output.delegate === delegate && output.delegateQueue === delegate.queue)
            item.add(output)
            let player = AVPlayer(playerItem: item)
            await driver.advance(by: 0.1)
            let group = try #require(item.mediaSelectionGroup(for: .legible))
            item.select(group.options.first { $0.extendedLanguageTag == "fr" }, in: group)
            player.play()
            await driver.advance(by: 2)
            item.remove(output)
            await driver.advance(by: 2)
            player.pause()
        }
        let shown = delegate.delivered.filter { !$0.texts.isEmpty }
        let expected = TrackClips.frenchCuesMP4.prefix(1)
        #expect(shown.map(\.texts) == expected.map { [$0.text] }, "\(delegate.delivered)")
        for (change, cue) in zip(shown, expected) {
            #expect(abs(change.time - cue.start) < 0.05, "\(change) for \(cue)")
        }
        // The first cue's end (1.7 s) cleared the text; the second (2.5 s) came after the output was removed.
        #expect(delegate.delivered.contains { $0.texts.isEmpty && abs($0.time - 1.7) < 0.05 }, "\(delegate.delivered)")
        #expect(!delegate.delivered.contains { $0.time > 2.2 }, "\(delegate.delivered)")
    }
}

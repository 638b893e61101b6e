import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

/// AVQueuePlayer and AVPlayerItem as Apple documents them, on real clips under a manual clock.
@Suite("AVQueuePlayer and AVPlayerItem semantics")
struct QueuePlayerSemanticsTests {
    @Test(
        "an item is .unknown when made, .readyToPlay once its player loads it; a missing file's is .failed with an error"
    )
    func itemStatus() async throws {
        let driver = ClockDriver()
        try await driver.run {
            // AVPlayerItem.status: "When you create a player item, its status is AVPlayerItem.Status.unknown".
            let item = AVPlayerItem(url: Clips.url("b.mp4"))
            #expect(item.status == .unknown && item.error == nil)
            let player = AVPlayer(playerItem: item)
            await driver.advance(by: 0.1)
            #expect(item.status == .readyToPlay && item.error == nil)
            #expect(item.duration == CMTimeMake(value: 4, timescale: 1), "ffprobe: 4.000 s")

            let missing = AVPlayerItem(url: URL(fileURLWithPath: "/nonexistent/clip.mp4"))
            player.replaceCurrentItem(with: missing)
            await driver.advance(by: 0.1)
            #expect(missing.status == .failed)
            #expect(missing.error != nil, "AVPlayerItem.error: why the item failed")
            _ = try #require(player.currentItem)
        }
    }

    @Test("the queue: actionAtItemEnd .advance; insert after nil appends; advance and remove drop the current item")
    func queue() async throws {
        let driver = ClockDriver()
        await driver.run {
            let (a, b, c) = (
                AVPlayerItem(url: Clips.url("a.mp4")), AVPlayerItem(url: Clips.url("b.mp4")),
                AVPlayerItem(url: Clips.url("a.mp4"))
            )
            let queue = AVQueuePlayer(items: [a, b])
            // AVPlayer.actionAtItemEnd: "the default value is .advance" for a queue player.
            #expect(queue.actionAtItemEnd == .advance)
            #expect(queue.items().map(ObjectIdentifier.init) == [a, b].map(ObjectIdentifier.init))
            #expect(queue.currentItem === a)
            // insert(_:after:): "nil appends the item to the queue"; canInsert is false for an item already in it.
            #expect(!queue.canInsert(b, after: nil))
            queue.insert(c, after: nil)
            #expect(queue.items().map(ObjectIdentifier.init) == [a, b, c].map(ObjectIdentifier.init))
            // advanceToNextItem(): "ends playback of the current item and starts playback of the next".
            queue.advanceToNextItem()
            #expect(queue.currentItem === b)
            #expect(queue.items().map(ObjectIdentifier.init) == [b, c].map(ObjectIdentifier.init))
            queue.remove(c)
            #expect(queue.items().map(ObjectIdentifier.init) == [b].map(ObjectIdentifier.init))
            // Played to its end, the last item leaves the queue: nothing is left to play.
            queue.play()
            await driver.advance(by: 4.5)
            #expect(queue.items().isEmpty && queue.currentItem == nil)
            // removeAllItems(): "removes all the items from the queue".
            queue.insert(a, after: nil)
            queue.removeAllItems()
            #expect(queue.items().isEmpty && queue.currentItem == nil)
        }
    }
}

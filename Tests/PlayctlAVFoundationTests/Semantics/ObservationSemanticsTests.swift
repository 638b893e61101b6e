import Locking
import PlaybackTesting
import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

/// Key-value observation options, `AVPlayerLayer.isReadyForDisplay` and `AVPlayerLooper`, as Apple's documentation
/// describes them (quoted in short in each test), on the committed clips under a manual clock.
@Suite("Observation, AVPlayerLayer and AVPlayerLooper, as Apple documents them")
struct ObservationSemanticsTests {
    @Test("KVO .old and .new carry both values; .prior adds a notification before each change, isPrior set")
    func observingOptions() async throws {
        // NSKeyValueObservingOptions: ".old: the change dictionary should contain the old attribute value";
        // ".prior: whether separate notifications should be sent to the observer before and after each change".
        let driver = ClockDriver()
        await driver.run {
            let player = AVPlayer(url: Clips.url("a.mp4"))
            await driver.advance(by: 0.1)
            let changes = Locked([String]())
            let observation = player.observe(\.rate, options: [.old, .new, .prior]) { _, change in
                let old = change.oldValue.map { "\($0)" } ?? "nil"
                let new = change.newValue.map { "\($0)" } ?? "nil"
                changes.withLock { $0.append("\(change.isPrior ? "prior" : "after") \(old)->\(new)") }
            }
            player.play()
            await driver.advance(by: 0.1)
            player.pause()
            await driver.advance(by: 0.1)
            // A prior notification has the old value only (Apple: "the new value is not included").
            #expect(
                changes.withLock { $0 } == ["prior 0.0->nil", "after 0.0->1.0", "prior 1.0->nil", "after 1.0->0.0"])
            observation.invalidate()
        }
    }

    @Test("AVPlayerLayer.isReadyForDisplay turns true once the current item's first frame is there, observably")
    func readyForDisplay() async throws {
        // isReadyForDisplay: "A Boolean value that indicates whether the first video frame of the player's current
        // item is ready for display."
        let driver = ClockDriver()
        await driver.run {
            let player = AVPlayer(url: Clips.url("a.mp4"))
            let layer = AVPlayerLayer(player: player)
            #expect(!layer.isReadyForDisplay)
            let seen = Locked([Bool]())
            let observation = layer.observe(\.isReadyForDisplay, options: [.new]) { _, change in
                seen.withLock { $0.append(change.newValue!) }
            }
            await driver.advance(by: 0.1)
            #expect(layer.isReadyForDisplay && seen.withLock { $0 } == [true])
            observation.invalidate()
        }
    }

    @Test("AVPlayerLooper: loopCount counts the loops played; disableLooping() lets the current one end")
    func looper() async throws {
        // loopCount: "The number of times the player looped the media"; disableLooping(): "the looper stops
        // adding items [...]; the currently playing item plays to its end".
        let driver = ClockDriver()
        await driver.run {
            let player = AVQueuePlayer(items: [])
            let looper = AVPlayerLooper(player: player, templateItem: AVPlayerItem(url: Clips.url("b.mp4")))
            await driver.advance(by: 0.1)
            #expect(looper.status == .ready && looper.loopCount == 0)
            player.play()
            await driver.advance(by: 9)
            #expect(looper.loopCount == 2, "b.mp4 is 4 s: two loops done at 9 s")
            looper.disableLooping()
            await driver.advance(by: 4)
            #expect(
                player.timeControlStatus != .playing || player.currentItem == nil,
                "\(player.items().count) items, at \(player.currentTime().seconds) s, \(player.timeControlStatus)")
            #expect(looper.loopCount == 2)
        }
    }
}

import Locking
import PlaybackTesting
import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

/// What Apple's documentation of `AVPlayer` and `AVPlayerItem` says of status, rate, waiting and the end of an item,
/// each quoted (in short) in its test and checked on the committed clips under a manual clock: written from the
/// documentation, not from recorded output.
@Suite("AVPlayer and AVPlayerItem: status, rate, waiting and end, as Apple documents them")
struct PlaybackStateSemanticsTests {
    @Test("AVPlayerItem.status: .unknown when made; .readyToPlay when loaded; .failed with `error` set, and it stays")
    func itemStatus() async throws {
        // "When you create a player item, its status is AVPlayerItem.Status.unknown [...] If the status is failed,
        // the error property describes the error; the player item can no longer be used for playback."
        let driver = ClockDriver()
        let directory = try TemporaryDirectory.make(prefix: "semantics")
        defer { TemporaryDirectory.remove(directory) }
        let broken = try #require(BrokenMedia.named("notes.mp4")).write(in: directory)
        await driver.run {
            let good = AVPlayerItem(url: Clips.url("a.mp4"))
            let bad = AVPlayerItem(url: URL(fileURLWithPath: broken))
            #expect(good.status == .unknown && bad.status == .unknown && good.error == nil)
            let statuses = Locked([AVPlayerItem.Status]())
            let observation = bad.observe(\.status, options: [.new]) { _, change in
                statuses.withLock { $0.append(change.newValue!) }
            }
            let player = AVPlayer(playerItem: good)
            let other = AVPlayer(playerItem: bad)
            await driver.advance(by: 0.1)
            #expect(good.status == .readyToPlay && good.error == nil)
            #expect(bad.status == .failed)
            let error = bad.error as NSError?
            #expect(error?.domain == AVFoundationErrorDomain, "\(String(describing: error))")
            other.play()
            await driver.advance(by: 0.5)
            #expect(bad.status == .failed && statuses.withLock { $0 } == [.failed], "failed stays failed")
            #expect(other.timeControlStatus != .playing)
            observation.invalidate()
            _ = player
        }
    }

    @Test("reasonForWaitingToPlay is set exactly while timeControlStatus is .waitingToPlayAtSpecifiedRate")
    func waitingReasonOnlyWhileWaiting() async throws {
        // "When the value of timeControlStatus is AVPlayer.TimeControlStatus.waitingToPlayAtSpecifiedRate, this
        // property describes why the player is currently waiting. It's nil otherwise."
        let driver = ClockDriver()
        await driver.run {
            let player = AVPlayer(url: Clips.url("b.mp4"))
            let violations = Locked([String]())
            let observation = player.observe(\.timeControlStatus, options: [.initial, .new]) { player, _ in
                let status = player.timeControlStatus
                let reason = player.reasonForWaitingToPlay
                if (status == .waitingToPlayAtSpecifiedRate) != (reason != nil) {
                    violations.withLock { $0.append("\(status) with \(String(describing: reason))") }
                }
            }
            player.play()
            await driver.advance(by: 0.5)
            player.seek(to: CMTimeMake(value: 2, timescale: 1)) { _ in }
            await driver.advance(by: 0.5)
            player.pause()
            await driver.advance(by: 0.1)
            player.play()
            await driver.advance(by: 1)
            player.replaceCurrentItem(with: nil)
            await driver.advance(by: 0.1)
            #expect(player.reasonForWaitingToPlay == .noItemToPlay)
            player.pause()
            #expect(player.reasonForWaitingToPlay == nil)
            #expect(violations.withLock { $0 }.isEmpty, "\(violations.withLock { $0 })")
            observation.invalidate()
        }
    }

    @Test("rate: play() sets the default rate, pause() sets 0, a nonzero rate plays; rate changes are observable")
    func rate() async throws {
        // "Calling the play() method [...] sets the value of rate to the value of defaultRate"; "pause(): this
        // method is the same as setting the rate to 0.0"; "Setting rate to a nonzero value [...] starts playback".
        let driver = ClockDriver()
        await driver.run {
            let player = AVPlayer(url: Clips.url("a.mp4"))
            await driver.advance(by: 0.1)
            #expect(player.rate == 0 && player.defaultRate == 1)
            let rates = Locked([Float]())
            let observation = player.observe(\.rate, options: [.new]) { _, change in
                rates.withLock { $0.append(change.newValue!) }
            }
            player.defaultRate = 2
            player.play()
            #expect(player.rate == 2)
            await driver.advance(by: 0.5)
            #expect(player.timeControlStatus == .playing)
            #expect(abs(player.currentTime().seconds - 1.0) < 0.1, "\(player.currentTime().seconds) s at rate 2")
            player.pause()
            #expect(player.rate == 0)
            await driver.advance(by: 0.1)
            #expect(player.timeControlStatus == .paused)
            player.rate = 1
            await driver.advance(by: 0.2)
            #expect(player.timeControlStatus == .playing)
            #expect(rates.withLock { $0 } == [2, 0, 1])
            observation.invalidate()
        }
    }

    @Test(
        "actionAtItemEnd: AVPlayer pauses at the end (.pause), AVQueuePlayer advances (.advance); one didPlayToEndTime")
    func itemEnd() async throws {
        // AVPlayer.actionAtItemEnd: "The default value of this property is AVPlayer.ActionAtItemEnd.pause" (for an
        // AVQueuePlayer: .advance); "pause: the player pauses playback when the item finishes".
        let driver = ClockDriver()
        await driver.run {
            let item = AVPlayerItem(url: Clips.url("b.mp4"))
            let player = AVPlayer(playerItem: item)
            #expect(player.actionAtItemEnd == .pause)
            #expect(AVQueuePlayer(items: []).actionAtItemEnd == .advance)
            let ends = Locked(0)
            let token = NotificationCenter.default.addObserver(
                forName: AVPlayerItem.didPlayToEndTimeNotification, object: item, queue: nil
            ) { _ in ends.withLock { $0 += 1 } }
            defer { NotificationCenter.default.removeObserver(token) }
            player.play()
            await driver.advance(by: 5)
            #expect(ends.withLock { $0 } == 1)
            #expect(player.rate == 0 && player.timeControlStatus == .paused)
            #expect(player.currentTime() == item.duration && player.currentItem === item)
        }
    }

    @Test("timeJumped is posted when the current time changes discontinuously (a seek), not while playing on")
    func timeJumped() async throws {
        // AVPlayerItemTimeJumped: "A notification the system posts when an item's current time has changed
        // discontinuously."
        let driver = ClockDriver()
        await driver.run {
            let item = AVPlayerItem(url: Clips.url("a.mp4"))
            let player = AVPlayer(playerItem: item)
            let jumps = Locked(0)
            let token = NotificationCenter.default.addObserver(
                forName: AVPlayerItem.timeJumpedNotification, object: item, queue: nil
            ) { _ in jumps.withLock { $0 += 1 } }
            defer { NotificationCenter.default.removeObserver(token) }
            player.play()
            await driver.advance(by: 1)
            #expect(jumps.withLock { $0 } == 0, "playing on is continuous")
            player.seek(to: CMTimeMake(value: 4, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero) { _ in }
            await driver.advance(by: 0.1)
            #expect(jumps.withLock { $0 } == 1)
        }
    }
}

import Locking
import PlaybackTesting
import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

/// What Apple documents, checked on real clips under a manual clock.
@Suite("AVPlayer semantics")
struct PlayerSemanticsTests {
    @Test("a superseded seek's completion runs once with false; the latest gets true")
    func supersededSeek() async throws {
        let driver = ClockDriver()
        try await driver.run {
            let player = AVPlayer(url: Clips.url("a.mp4"))
            await driver.advance(by: 0.1)
            let results = Locked([String]())
            player.seek(to: CMTimeMake(value: 2, timescale: 1)) { finished in
                results.withLock { $0.append("first \(finished)") }
            }
            player.seek(to: CMTimeMake(value: 4, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero) {
                finished in
                results.withLock { $0.append("second \(finished)") }
            }
            #expect(
                player.currentTime() == CMTimeMake(value: 4, timescale: 1), "currentTime reports the pending target")
            await driver.advance(by: 0.1)
            #expect(results.withLock { $0 } == ["first false", "second true"])
            let item = try #require(player.currentItem)
            #expect(
                await item.seek(to: CMTimeMake(value: 1, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero))
            #expect(item.currentTime() == CMTimeMake(value: 1, timescale: 1))
        }
    }

    @Test("preferredMaximumResolution and preferredPeakBitRate start at zero (no limit) and keep what is set")
    func preferredLimitsAreKept() {
        let item = AVPlayerItem(url: Clips.url("a.mp4"))
        #expect(item.preferredMaximumResolution == .zero && item.preferredPeakBitRate == 0)
        item.preferredMaximumResolution = CGSize(width: 640, height: 360)
        item.preferredPeakBitRate = 2_000_000
        #expect(item.preferredMaximumResolution == CGSize(width: 640, height: 360))
        #expect(item.preferredPeakBitRate == 2_000_000)
    }

    @Test("KVO .initial fires synchronously inside observe, with the current value; later changes in order")
    func initialIsSynchronous() async throws {
        let driver = ClockDriver()
        await driver.run {
            let player = AVPlayer(url: Clips.url("a.mp4"))
            let seen = Locked([String]())
            let observation = player.observe(\.timeControlStatus, options: [.initial, .new]) { _, change in
                seen.withLock { $0.append("\(change.newValue!)") }
            }
            #expect(seen.withLock { $0 } == ["paused"], "before observe returned")
            player.play()
            await driver.advance(by: 0.1)
            #expect(seen.withLock { $0 } == ["paused", "waitingToPlayAtSpecifiedRate", "playing"])
            observation.invalidate()
            player.pause()
            await driver.advance(by: 0)
            #expect(seen.withLock { $0 }.count == 3, "nothing after invalidate()")

            let statuses = Locked([AVPlayerItem.Status]())
            let item = AVPlayerItem(url: Clips.url("b.mp4"))
            let itemObservation = item.observe(\.status, options: [.initial, .new, .old]) { _, change in
                statuses.withLock { $0.append(change.newValue!) }
            }
            player.replaceCurrentItem(with: item)
            await driver.advance(by: 0)
            #expect(statuses.withLock { $0 } == [.unknown, .readyToPlay])
            #expect(item.duration == CMTimeMake(value: 4, timescale: 1) && item.seekableTimeRanges.count == 1)
            _ = itemObservation
        }
    }

    @Test("replaceCurrentItem(with: nil): a paused player stays paused; a playing one waits with noItemToPlay")
    func replaceWithNil() async throws {
        let driver = ClockDriver()
        await driver.run {
            let paused = AVPlayer(url: Clips.url("a.mp4"))
            await driver.advance(by: 0.1)
            paused.replaceCurrentItem(with: nil)
            #expect(paused.timeControlStatus == .paused && paused.currentItem == nil)

            let playing = AVPlayer(url: Clips.url("a.mp4"))
            let items = Locked([String]())
            let observation = playing.observe(\.currentItem, options: [.new]) { _, change in
                items.withLock { $0.append(change.newValue??.asset.description == nil ? "nil" : "item") }
            }
            playing.play()
            await driver.advance(by: 0.1)
            playing.replaceCurrentItem(with: nil)
            #expect(playing.timeControlStatus == .waitingToPlayAtSpecifiedRate)
            #expect(playing.reasonForWaitingToPlay == .noItemToPlay, "AVPlayer.TimeControlStatus: currentItem is nil")
            playing.pause()
            #expect(playing.timeControlStatus == .paused && playing.reasonForWaitingToPlay == nil)
            await driver.advance(by: 0)
            #expect(items.withLock { $0 }.last == "nil")
            observation.invalidate()
        }
    }

    @Test("time observers run on their queue; a removed one never runs again; boundaries take [NSValue]")
    func timeObservers() async throws {
        let driver = ClockDriver()
        await driver.run {
            let player = AVPlayer(url: Clips.url("a.mp4"))
            let queue = DispatchQueue(label: "observers")
            let ticks = Locked([Double]())
            let boundaries = Locked(0)
            let periodic = player.addPeriodicTimeObserver(forInterval: CMTimeMake(value: 1, timescale: 2), queue: queue)
            {
                time in
                dispatchPrecondition(condition: .onQueue(queue))
                ticks.withLock { $0.append(time.seconds) }
            }
            let boundary = player.addBoundaryTimeObserver(
                forTimes: [NSValue(time: CMTimeMake(value: 1, timescale: 1))], queue: nil
            ) {
                MainActor.assumeIsolated { boundaries.withLock { $0 += 1 } }
            }
            player.play()
            await driver.advance(by: 1.2)
            #expect(boundaries.withLock { $0 } == 1, "on the main queue")
            #expect(ticks.withLock { $0 }.contains(0.5) && ticks.withLock { $0 }.contains(1.0))
            player.removeTimeObserver(periodic)
            player.removeTimeObserver(boundary)
            let count = ticks.withLock { $0.count }
            await driver.advance(by: 1)
            #expect(ticks.withLock { $0.count } == count)
        }
    }

    @Test("didPlayToEndTime arrives through NotificationCenter.notifications(named:object:) and addObserver")
    func notifications() async throws {
        let driver = ClockDriver()
        try await driver.run {
            let item = AVPlayerItem(url: Clips.url("b.mp4"))
            let player = AVPlayer(playerItem: item)
            let viaBlock = Locked(0)
            let token = NotificationCenter.default.addObserver(
                forName: AVPlayerItem.didPlayToEndTimeNotification, object: item, queue: nil
            ) { _ in viaBlock.withLock { $0 += 1 } }
            // The sequence observes from its iterator's making: the play starts once the task has made it.
            let observing = Locked(false)
            let ended = Task {
                var notifications = NotificationCenter.default.notifications(
                    named: .AVPlayerItemDidPlayToEndTime, object: item
                ).makeAsyncIterator()
                observing.withLock { $0 = true }
                guard let notification = await notifications.next() else { return false }
                return notification.object as? AVPlayerItem === item
            }
            try await waitUntil("the notifications' loop to observe") { observing.withLock { $0 } }
            player.play()
            await driver.advance(by: 4.1)
            #expect(try await withDeadline("the didPlayToEnd notification") { await ended.value })
            #expect(viaBlock.withLock { $0 } == 1)
            NotificationCenter.default.removeObserver(token)
        }
    }

    @Test("AVURLAsset loads typed and string-keyed; a missing file fails with an NSError")
    func assets() async throws {
        let asset = AVURLAsset(url: Clips.url("a.mp4"))
        var error: NSError?
        #expect(asset.statusOfValue(forKey: "duration", error: &error) == .unknown)
        try await withDeadline("loadValuesAsynchronously's completion handler") {
            await withCheckedContinuation { continuation in
                asset.loadValuesAsynchronously(forKeys: ["duration", "playable"]) { continuation.resume() }
            }
        }
        #expect(asset.statusOfValue(forKey: "duration", error: &error) == .loaded)
        let (duration, tracks) = try await asset.load(.duration, .tracks)
        #expect(duration == CMTimeMake(value: 6, timescale: 1))
        #expect(tracks.contains { $0.mediaType == .video && $0.naturalSize.width > 0 })

        let missing = AVURLAsset(url: URL(fileURLWithPath: "/nonexistent/clip.mp4"))
        await #expect(throws: NSError.self) { try await missing.load(.isPlayable) }
        #expect(missing.statusOfValue(forKey: "playable", error: &error) == .failed)
        #expect(error?.domain == AVFoundationErrorDomain)
        #expect(!missing.isPlayable)
    }
}

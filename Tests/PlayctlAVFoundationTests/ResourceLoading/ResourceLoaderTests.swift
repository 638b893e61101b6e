import AVFoundation
import Locking
import Playback
import PlaybackTesting
import Testing

/// Custom loading as caching players use it: an `AVURLAsset` with a custom scheme whose bytes a delegate gives.
@Suite("AVAssetResourceLoader: a delegate answers the engine's reads")
struct ResourceLoaderTests {
    static let url = URL(string: "playctl-test://clips/a.mp4")!

    struct Outcome {
        var md5s: [String]
        var item: AVPlayerItem
        var ended: Bool
    }

    /// Plays `url` with `delegate` on the untimed clock (every frame shown, as fast as the bytes come, audio
    /// decoded: both readers go through the delegate) until it ends or fails, within 60 s.
    static func play(_ delegate: RecordingLoaderDelegate, url: URL = url) async throws -> Outcome {
        try await PlayctlAVFoundation.withConfiguration(.init(clock: .untimed, decodesAudio: true)) {
            let asset = AVURLAsset(url: url)
            asset.resourceLoader.setDelegate(delegate, queue: delegate.queue)
            let item = AVPlayerItem(asset: asset)
            let player = AVPlayer(playerItem: item)
            defer { player.playctlPlayer.invalidate() }
            let md5s = Locked([String]())
            player.playctlPlayer.add(VideoSink { frame in md5s.withLock { $0.append(frame.md5()) } })
            let events = player.playctlPlayer.events()
            let seen = Locked((kinds: [String](), ended: false, failed: false))
            let watcher = Task {
                for await event in events {
                    seen.withLock { seen in
                        seen.kinds.append("\(event.kind)")
                        switch event.kind {
                        case .didPlayToEnd: seen.ended = true
                        case .failedToPlayToEnd, .itemStatus(.failed, _, _): seen.failed = true
                        default: break
                        }
                    }
                }
            }
            player.play()
            try await waitUntil(
                "the item to end or fail (last events: \(seen.withLock { $0.kinds.suffix(20) }))", timeout: .seconds(60)
            ) {
                // The item may fail before the events are subscribed to (the player loads it when made).
                seen.withLock { $0.ended || $0.failed } || item.status == .failed
            }
            watcher.cancel()
            let ended = seen.withLock { $0.ended }
            await player.playctlPlayer.callbacksDelivered()
            return Outcome(md5s: md5s.withLock { $0 }, item: item, ended: ended)
        }
    }

    @Test("a delegate serving 64 KB at a time, slowly, plays the clip bit-exact")
    func slowPiecesPlayBitExact() async throws {
        let delegate = try SlowPiecesDelegate(clip: "a.mp4", piece: 64 << 10, delay: .milliseconds(2))
        let outcome = try await Self.play(delegate)
        #expect(outcome.ended, "\(outcome.item.error.map { "\($0)" } ?? "no error")")
        #expect(outcome.md5s == (try MediaFixtures.referenceMD5s("a.mp4")), "every frame is FFmpeg's")
        let log = delegate.log.withLock { $0 }
        #expect(log.first == "info 0+2", "the first request asks what the resource is: \(log)")
        #expect(log.contains { $0.hasPrefix("data ") }, "\(log)")
        #expect(outcome.item.status == .readyToPlay)
        #expect(outcome.item.duration == CMTime(value: 6, timescale: 1), "\(outcome.item.duration)")
    }

    @Test("a delegate answering with more than asked: a request holds at most its requested length, still bit-exact")
    func answersBeyondTheRequestAreDropped() async throws {
        let delegate = try WholeRestDelegate(clip: "a.mp4")
        let outcome = try await Self.play(delegate)
        #expect(outcome.ended)
        #expect(outcome.md5s == (try MediaFixtures.referenceMD5s("a.mp4")))
        let answered = delegate.answered.withLock { $0 }
        #expect(answered.count > 2, "the clip is read in several bounded requests: \(answered)")
        for (asked, taken) in answered {
            #expect(asked <= 256 << 10 && taken == Int64(asked), "\(answered)")
        }
    }

    @Test("the asset's properties load through the delegate")
    func assetLoadsThroughTheDelegate() async throws {
        let delegate = try SlowPiecesDelegate(clip: "a.mp4", piece: 64 << 10, delay: .milliseconds(1))
        let asset = AVURLAsset(url: Self.url)
        asset.resourceLoader.setDelegate(delegate, queue: delegate.queue)
        let (duration, playable) = try await asset.load(.duration, .isPlayable)
        #expect(playable)
        let fromFile = try await AVURLAsset(url: Clips.url("a.mp4")).load(.duration)
        #expect(duration == fromFile && duration == CMTime(value: 6, timescale: 1), "\(duration) \(fromFile)")
        #expect(delegate.log.withLock { $0 }.first == "info 0+2")
    }

    @Test("a failing delegate fails the item with an error naming the URL and the delegate's reason")
    func failingDelegateFailsTheItem() async throws {
        let delegate = try FailingDelegate(clip: "a.mp4")
        let outcome = try await Self.play(delegate)
        #expect(!outcome.ended && outcome.md5s.isEmpty)
        #expect(outcome.item.status == .failed)
        let description = "\(outcome.item.error.map { "\($0.localizedDescription)" } ?? "no error")"
        #expect(description.contains("playctl-test://clips/a.mp4"), "\(description)")
        #expect(description.contains("the disk is on fire"), "\(description)")
    }

    @Test("a URL with a custom scheme and no delegate, or a declining one, fails the item with a typed error")
    func noDelegateOrDecliningFails() async throws {
        let outcome = try await PlayctlAVFoundation.withConfiguration(.init(clock: .untimed)) {
            let item = AVPlayerItem(url: URL(string: "playctl-none://clips/a.mp4")!)
            let player = AVPlayer(playerItem: item)
            defer { player.playctlPlayer.invalidate() }
            try await waitUntil("the item without a delegate to fail") { item.status == .failed }
            return item
        }
        let description = outcome.error.map { "\($0.localizedDescription)" } ?? ""
        #expect(
            description.contains("playctl-none://clips/a.mp4") && description.contains("no resource loader delegate"))

        let declining = try RecordingLoaderDelegate(clip: "a.mp4")  // answers false to every request
        let declined = try await Self.play(declining)
        #expect(declined.item.status == .failed)
        #expect("\(declined.item.error.map { $0.localizedDescription } ?? "")".contains("declined"))
    }

    @Test("replacing the item cancels the request its reader waits for: the delegate is told, on its queue")
    func replacingTheItemCancels() async throws {
        let delegate = try SilentDelegate(clip: "a.mp4")
        try await PlayctlAVFoundation.withConfiguration(.init(clock: .untimed, decodesAudio: false)) {
            let asset = AVURLAsset(url: Self.url)
            asset.resourceLoader.setDelegate(delegate, queue: delegate.queue)
            let player = AVPlayer(playerItem: AVPlayerItem(asset: asset))
            defer { player.playctlPlayer.invalidate() }
            player.play()
            try await waitUntil("the delegate to be asked for the resource") {
                !delegate.log.withLock { $0 }.isEmpty
            }
            #expect(delegate.cancelled.withLock { $0 }.isEmpty)
            player.replaceCurrentItem(with: AVPlayerItem(url: Clips.url("b.mp4")))
            try await waitUntil("didCancel for the request in flight") {
                !delegate.cancelled.withLock { $0 }.isEmpty
            }
            let cancelled = delegate.cancelled.withLock { $0 }
            #expect(cancelled.count == 1 && cancelled[0].isCancelled && !cancelled[0].isFinished)
            #expect(delegate.log.withLock { $0 } == ["info 0+2", "cancel info 0+2"])
            try await waitUntil("b.mp4 to be ready") { player.currentItem?.status == .readyToPlay }
        }
    }

    @Test("a seek past the request in flight cancels it (didCancel) and reads on from the new place, bit-exact")
    func seekCancelsTheRequestInFlight() async throws {
        // The video reader's first request stalls after 128 KB (about 2 s of the clip): frames from 5 s on can only
        // come after the seek. The keyframe before 5 s lies beyond that request (byte 269149).
        let delegate = try StallingDelegate(clip: "a.mp4", stallAfter: 128 << 10)
        let fromFive = try MediaFixtures.referenceFrames("a.mp4").filter { $0.seconds >= 5 }.map(\.md5)
        try await PlayctlAVFoundation.withConfiguration(.init(clock: .untimed, decodesAudio: false)) {
            let asset = AVURLAsset(url: Self.url)
            asset.resourceLoader.setDelegate(delegate, queue: delegate.queue)
            let item = AVPlayerItem(asset: asset)
            let player = AVPlayer(playerItem: item)
            defer { player.playctlPlayer.invalidate() }
            let fromFiveShown = Locked([String]())
            player.playctlPlayer.add(
                VideoSink { frame in
                    if frame.time.seconds >= 5 { fromFiveShown.withLock { $0.append(frame.md5()) } }
                })
            player.play()
            try await waitUntil("the item to be ready") { item.status == .readyToPlay }
            // The untimed clock plays what the 128 KB hold, then waits: the video reader waits in the source for
            // bytes the delegate never gives, and only the seek can take it out (InterruptibleByteSource).
            let last = Locked(-1.0)
            try await waitUntil("the play to wait at the stall", interval: .milliseconds(50)) {
                let now = player.currentTime().seconds
                return now > 1
                    && last.withLock { previous in
                        defer { previous = now }
                        return previous == now
                    }
            }
            let landed = try await withDeadline("the seek to 5 s past the stalled request to complete") {
                await player.seek(to: CMTime(value: 5, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero)
            }
            #expect(landed)
            try await waitUntil("the frames from 5 s to the end") {
                fromFiveShown.withLock { $0.count } >= fromFive.count
            }
            #expect(fromFiveShown.withLock { $0 } == fromFive, "the frames after the seek are FFmpeg's")
        }
        let log = delegate.log.withLock { $0 }
        let cancelled = try #require(
            log.firstIndex(of: "cancel data 2+262144"), "the request the seek left was cancelled: \(log)")
        let offsets = log[cancelled...].compactMap { entry -> Int? in
            guard entry.hasPrefix("data ") else { return nil }
            return Int(entry.dropFirst(5).prefix { $0 != "+" })
        }
        #expect(offsets.contains { $0 > 262_146 && $0 <= 269_149 }, "a new request for the keyframe's bytes: \(log)")
    }
}

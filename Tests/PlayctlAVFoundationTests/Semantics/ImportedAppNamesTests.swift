import Foundation
import Locking
import PlaybackTesting
import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

/// Names iOS playback code uses that the outside-files measurement found missing (docs/avfoundation.md), each as
/// Apple documents it: `AVPlayerViewController` and its delegate's Picture in Picture calls, `preroll(atRate:)`,
/// `AVAssetTrack.load(.estimatedDataRate)`, `loadValues(forKeys:) async`, an `AVPlayer` subclass calling
/// `super.init()`, a layer's geometry and `videoRect`, and a non-optional `AVPictureInPictureController.playerLayer`.
@Suite("AVFoundation names apps use")
struct ImportedAppNamesTests {
    final class ViewControllerDelegate: AVPlayerViewControllerDelegate, @unchecked Sendable {
        let calls = Locked<[String]>([])
        func playerViewControllerWillStartPictureInPicture(_ playerViewController: AVPlayerViewController) {
            calls.withLock { $0.append("willStart") }
        }
        func playerViewControllerDidStartPictureInPicture(_ playerViewController: AVPlayerViewController) {
            calls.withLock { $0.append("didStart") }
        }
        func playerViewControllerWillStopPictureInPicture(_ playerViewController: AVPlayerViewController) {
            calls.withLock { $0.append("willStop") }
        }
        func playerViewControllerDidStopPictureInPicture(_ playerViewController: AVPlayerViewController) {
            calls.withLock { $0.append("didStop") }
        }
    }

    @Test("AVPlayerViewController: its player shown; Picture in Picture's calls reach its delegate in order")
    @MainActor
    func playerViewController() async throws {
        let driver = ClockDriver()
        try await driver.run { @MainActor in
            try AVAudioSession.sharedInstance().setCategory(.playback)
            try AVAudioSession.sharedInstance().setActive(true)
            let controller = AVPlayerViewController()
            let delegate = ViewControllerDelegate()
            controller.delegate = delegate
            controller.player = AVPlayer(url: Clips.url("a.mp4"))
            controller.player?.play()
            await driver.advance(by: 0.5)
            #expect(controller.isReadyForDisplay)
            let pip = try #require(controller.playctlPictureInPictureController)
            #expect(pip.playerLayer === controller.playctlPlayerLayer)
            pip.startPictureInPicture()
            await driver.advance(by: 0.5)
            #expect(pip.isPictureInPictureActive)
            pip.stopPictureInPicture()
            await driver.advance(by: 0.5)
            #expect(delegate.calls.withLock { $0 } == ["willStart", "didStart", "willStop", "didStop"])
            controller.player?.pause()
        }
    }

    @Test("preroll(atRate:): true once the item is likely to keep up; false when the rate changes first, or no item")
    func preroll() async throws {
        let driver = ClockDriver()
        try await driver.run {
            let player = AVPlayer(url: Clips.url("a.mp4"))
            let answers = Locked<[Bool]>([])
            player.preroll(atRate: 1) { finished in answers.withLock { $0.append(finished) } }
            await driver.run(until: { answers.withLock { !$0.isEmpty } }, limit: 2)
            #expect(answers.withLock { $0 } == [true])
            #expect(player.currentItem?.isPlaybackLikelyToKeepUp == true)
            // Ready already: answered at once.
            let again = AsyncStream.makeStream(of: Bool.self)
            player.preroll(atRate: 1) { again.continuation.yield($0) }
            let second = try await firstElement(of: again.stream, "the second preroll's answer")
            #expect(second == true)
            // No item: false.
            let empty = AVPlayer()
            let none = AsyncStream.makeStream(of: Bool.self)
            empty.preroll(atRate: 1) { none.continuation.yield($0) }
            let noItem = try await firstElement(of: none.stream, "the empty player's preroll answer")
            #expect(noItem == false)
            // A rate change before the item is ready: false.
            let late = AVPlayer(url: Clips.url("b.mp4"))
            let interrupted = Locked<[Bool]>([])
            late.preroll(atRate: 1) { finished in interrupted.withLock { $0.append(finished) } }
            late.play()
            await driver.advance(by: 0.5)
            #expect(interrupted.withLock { $0 } == [false])
            late.pause()
        }
    }

    @Test("a track's estimatedDataRate is its stream's bit rate as ffprobe reads it; loadValues(forKeys:) async")
    func trackDataRate() async throws {
        let asset = AVURLAsset(url: Clips.url("a.mp4"))
        await asset.loadValues(forKeys: ["duration", "tracks"])
        var error: NSError?
        #expect(asset.statusOfValue(forKey: "tracks", error: &error) == .loaded)
        let tracks = try await asset.load(.tracks)
        let video = try #require(tracks.first { $0.mediaType == .video })
        let rate = try await video.load(.estimatedDataRate)
        let ffprobe = try #require(ProcessRunner.findExecutable("ffprobe"))
        let probe = try await ProcessRunner.run(
            ffprobe,
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=bit_rate", "-of", "csv=p=0",
                MediaFixtures.path("a.mp4"),
            ], standardOutput: .capture)
        let expected = try #require(Float(probe.outputText.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(rate == expected && rate > 0)
        #expect(try await video.load(.mediaType) == .video)
    }

    final class AppPlayer: AVPlayer, @unchecked Sendable {
        let label: String
        init(label: String) {
            self.label = label
            super.init()
        }
    }

    @Test("an AVPlayer subclass calls super.init() and plays")
    func subclass() async throws {
        let driver = ClockDriver()
        await driver.run {
            let player = AppPlayer(label: "app")
            player.replaceCurrentItem(with: AVPlayerItem(url: Clips.url("a.mp4")))
            player.play()
            await driver.advance(by: 1)
            #expect(player.label == "app" && abs(player.currentTime().seconds - 1) < 0.05)
            player.pause()
        }
    }

    @Test("a layer's frame and bounds; videoRect fits the picture by the gravity; playerLayer is never nil")
    func layerGeometry() async throws {
        let driver = ClockDriver()
        try await driver.run {
            let layer = AVPlayerLayer(player: AVPlayer(url: Clips.url("a.mp4")))
            layer.frame = CGRect(x: 10, y: 20, width: 640, height: 640)
            #expect(layer.bounds == CGRect(x: 0, y: 0, width: 640, height: 640))
            #expect(layer.videoRect == .zero, "no picture yet")
            layer.player?.play()
            await driver.advance(by: 0.2)
            let size = try #require(layer.player?.currentItem?.presentationSize)
            #expect(size.width > size.height)
            let height = 640 * size.height / size.width
            #expect(layer.videoRect == CGRect(x: 0, y: (640 - height) / 2, width: 640, height: height))
            layer.videoGravity = .resizeAspectFill
            let width = 640 * size.width / size.height
            #expect(layer.videoRect == CGRect(x: (640 - width) / 2, y: 0, width: width, height: 640))
            layer.videoGravity = .resize
            #expect(layer.videoRect == layer.bounds)
            layer.player?.pause()
        }
    }

    @Test(
        "an item's timebase: nil before a player takes it; its time the item's, its rate the effective one, announced")
    func timebase() async throws {
        let driver = ClockDriver()
        try await driver.run {
            let item = AVPlayerItem(url: Clips.url("a.mp4"))
            #expect(item.timebase == nil, "Apple: nil until the item is associated with a player")
            let player = AVPlayer(playerItem: item)
            let timebase = try #require(item.timebase)
            #expect(item.timebase === timebase)
            let rates = Locked<[Float64]>([])
            let token = NotificationCenter.default.addObserver(
                forName: .TimebaseEffectiveRateChangedNotification, object: timebase, queue: nil
            ) { note in
                guard let posted = note.object as? CMTimebase else { return }
                rates.withLock { $0.append(CMTimebaseGetRate(posted)) }
            }
            defer { NotificationCenter.default.removeObserver(token) }
            await driver.advance(by: 0.2)
            #expect(CMTimebaseGetRate(timebase) == 0)
            player.play()
            await driver.advance(by: 1)
            #expect(CMTimebaseGetRate(timebase) == 1)
            #expect(CMTimebaseGetTime(timebase) == item.currentTime())
            player.rate = 2
            await driver.advance(by: 0.5)
            player.pause()
            await driver.advance(by: 0.1)
            #expect(rates.withLock { $0 } == [1, 2, 0])
        }
    }
}

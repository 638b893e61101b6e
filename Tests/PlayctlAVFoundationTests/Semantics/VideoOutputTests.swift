import Locking
import Playback
import PlaybackTesting
import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

/// `AVPlayerItemVideoOutput` and `CVPixelBuffer` as Apple documents them, under a manual clock: the buffer copied
/// at an item time is the frame on screen then, byte for byte ffmpeg's decode of it converted to the pixel format
/// asked for; a copied frame is not new again; a removed output gets nothing; an output holds two frames at most.
@Suite("AVPlayerItemVideoOutput")
struct VideoOutputTests {
    static var bgra: [String: Any] { [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA] }

    /// What the app copied: the frame's index in ffmpeg's list, the time it was shown for, and its pixels.
    struct Copied {
        var index: Int
        var displayTime: Double
        var format: String
        var width: Int
        var height: Int
        var bytesPerRow: Int
        var pixels: [UInt8]
    }

    /// The bytes of `buffer`, read as an app does (locked, read only).
    static func pixels(_ buffer: CVPixelBuffer) -> [UInt8] {
        #expect(CVPixelBufferLockBaseAddress(buffer, .readOnly) == kCVReturnSuccess)
        defer { #expect(CVPixelBufferUnlockBaseAddress(buffer, .readOnly) == kCVReturnSuccess) }
        let base = CVPixelBufferGetBaseAddress(buffer)!
        let count = CVPixelBufferGetBytesPerRow(buffer) * CVPixelBufferGetHeight(buffer)
        return [UInt8](UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Frame `index` of `clip` as ffmpeg decodes it and converts it to `format` (`bgra`, `argb`).
    static func ffmpegFrame(_ clip: String, index: Int, format: String) async throws -> [UInt8] {
        try await PixelOracle.raw(
            of: MediaFixtures.path(clip), inputOptions: ["-noautorotate"], filters: "select=eq(n\\,\(index))",
            pixelFormat: format)
    }

    @Test("the buffer copied at an item time is the frame on screen then, ffmpeg's decode converted, BGRA and ARGB")
    func pixelsAgainstFFmpeg() async throws {
        let reference = try MediaFixtures.referenceFrames("a.mp4")
        let driver = ClockDriver()
        let copied = try await driver.run {
            let item = AVPlayerItem(url: Clips.url("a.mp4"))
            let output = AVPlayerItemVideoOutput(pixelBufferAttributes: Self.bgra)
            let argb = AVPlayerItemVideoOutput(pixelBufferAttributes: [
                kCVPixelBufferPixelFormatTypeKey as String: [kCVPixelFormatType_32ARGB, kCVPixelFormatType_32BGRA]
            ])
            item.add(output)
            item.add(argb)
            #expect(item.outputs.count == 2 && item.outputs.first === output)
            let player = AVPlayer(playerItem: item)
            player.play()
            var copied: [Copied] = []
            for (target, use) in [(0.5, output), (1.3, output), (2.5, output), (3.1, argb)] {
                await driver.advance(by: target - player.currentTime().seconds)
                let now = player.currentTime()
                var display = CMTime.invalid
                let buffer = try #require(use.copyPixelBuffer(forItemTime: now, itemTimeForDisplay: &display))
                let index = reference.indexOnScreen(atMicroseconds: Int64((now.seconds * 1e6).rounded()))
                let format = CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32ARGB ? "argb" : "bgra"
                copied.append(
                    Copied(
                        index: index, displayTime: display.seconds, format: format,
                        width: CVPixelBufferGetWidth(buffer), height: CVPixelBufferGetHeight(buffer),
                        bytesPerRow: CVPixelBufferGetBytesPerRow(buffer), pixels: Self.pixels(buffer)))
            }
            return copied
        }
        #expect(copied.map(\.format) == ["bgra", "bgra", "bgra", "argb"])
        for frame in copied {
            #expect(frame.width == 640 && frame.height == 360 && frame.bytesPerRow == 640 * 4)
            #expect(
                abs(frame.displayTime - reference[frame.index].seconds) < 0.001,
                "shown for \(frame.displayTime), ffmpeg's frame \(frame.index) is at \(reference[frame.index].seconds)")
            let expected = try await Self.ffmpegFrame("a.mp4", index: frame.index, format: frame.format)
            #expect(frame.pixels == expected, "frame \(frame.index) as \(frame.format) differs from ffmpeg's")
        }
        #expect(Set(copied.map(\.index)).count == copied.count, "four different frames")
    }

    @Test("a frame copied is not new until the next one shows; copying it again gives nil")
    func newness() async throws {
        let driver = ClockDriver()
        try await driver.run {
            let item = AVPlayerItem(url: Clips.url("a.mp4"))
            let output = AVPlayerItemVideoOutput(pixelBufferAttributes: nil)
            #expect(!output.hasNewPixelBuffer(forItemTime: .zero), "on no item yet")
            item.add(output)
            let player = AVPlayer(playerItem: item)
            await driver.advance(by: 0.1)
            #expect(output.hasNewPixelBuffer(forItemTime: .zero), "the first frame shows while paused")
            player.play()
            await driver.advance(by: 1)
            let now = player.currentTime()
            #expect(output.hasNewPixelBuffer(forItemTime: now))
            var display = CMTime.invalid
            let buffer = try #require(output.copyPixelBuffer(forItemTime: now, itemTimeForDisplay: &display))
            #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA, "BGRA by default")
            #expect(!output.hasNewPixelBuffer(forItemTime: now), "copied already")
            var again = CMTime.invalid
            #expect(output.copyPixelBuffer(forItemTime: now, itemTimeForDisplay: &again) == nil)
            #expect(again == .invalid, "left as it was")
            player.pause()
            await driver.advance(by: 0.5)
            #expect(!output.hasNewPixelBuffer(forItemTime: player.currentTime()), "paused: no new frame")
            player.play()
            await driver.advance(by: 0.1)
            let later = player.currentTime()
            #expect(output.hasNewPixelBuffer(forItemTime: later), "the next frame")
            #expect(!output.hasNewPixelBuffer(forItemTime: display), "not at the time of the one copied")
            let next = try #require(output.copyPixelBuffer(forItemTime: later, itemTimeForDisplay: &again))
            #expect(again > display && again <= later)
            _ = next
        }
    }

    @Test("a removed output gets no frame; item time for host time follows the player's clock")
    func removal() async throws {
        let driver = ClockDriver()
        await driver.run {
            let item = AVPlayerItem(url: Clips.url("a.mp4"))
            let kept = AVPlayerItemVideoOutput(pixelBufferAttributes: Self.bgra)
            let removed = AVPlayerItemVideoOutput(pixelBufferAttributes: Self.bgra)
            item.add(kept)
            item.add(removed)
            let other = AVPlayerItem(url: Clips.url("b.mp4"))
            #expect(!other.canAdd(removed), "an output serves one item")
            let player = AVPlayer(playerItem: item)
            player.play()
            await driver.advance(by: 0.5)
            let clock = player.playctlPlayer.clockTime
            let now = player.currentTime()
            #expect(abs(kept.itemTime(forHostTime: clock).seconds - now.seconds) < 1e-6)
            #expect(abs(kept.itemTime(forHostTime: clock + 0.25).seconds - (now.seconds + 0.25)) < 1e-6)
            var display = CMTime.invalid
            #expect(kept.copyPixelBuffer(forItemTime: now, itemTimeForDisplay: &display) != nil)
            #expect(removed.copyPixelBuffer(forItemTime: now, itemTimeForDisplay: &display) != nil)
            item.remove(removed)
            #expect(item.outputs.count == 1 && item.outputs.first === kept)
            #expect(removed.itemTime(forHostTime: clock) == .invalid, "on no item")
            #expect(other.canAdd(removed))
            await driver.advance(by: 0.5)
            let later = player.currentTime()
            #expect(kept.hasNewPixelBuffer(forItemTime: later), "the kept output got the frames shown since")
            #expect(!removed.hasNewPixelBuffer(forItemTime: later), "the removed one got none")
            #expect(removed.copyPixelBuffer(forItemTime: later, itemTimeForDisplay: &display) == nil)
            player.pause()
            await driver.advance(by: 0.1)
            let paused = player.playctlPlayer.clockTime
            #expect(kept.itemTime(forHostTime: paused + 1) == kept.itemTime(forHostTime: paused), "paused: still")

            // Another item's frames do not reach the output (an earlier frame would make it new again).
            let end = CMTime(seconds: 100, preferredTimescale: 600)
            #expect(kept.copyPixelBuffer(forItemTime: end, itemTimeForDisplay: &display) != nil)
            player.replaceCurrentItem(with: other)
            player.play()
            await driver.advance(by: 0.5)
            #expect(player.currentItem === other && player.currentTime().seconds > 0.3)
            #expect(!kept.hasNewPixelBuffer(forItemTime: end), "no frame of b.mp4")
            #expect(kept.itemTime(forHostTime: player.playctlPlayer.clockTime) == .invalid, "its item is not current")
        }
    }

    @Test("an output holds at most two shown frames, however many it was given")
    func heldFramesAreBounded() async throws {
        /// A frame the player showed, held weakly.
        final class Shown: @unchecked Sendable {
            weak var frame: VideoFrame?
            init(_ frame: VideoFrame) { self.frame = frame }
        }
        let driver = ClockDriver()
        await driver.run {
            let item = AVPlayerItem(url: Clips.url("a.mp4"))
            let output = AVPlayerItemVideoOutput(pixelBufferAttributes: Self.bgra)
            item.add(output)
            let player = AVPlayer(playerItem: item)
            let shown = Locked([Shown]())
            player.playctlPlayer.add(VideoSink { frame in shown.withLock { $0.append(Shown(frame)) } })
            player.play()
            await driver.advance(by: 2)
            let count = shown.withLock { $0.count }
            #expect(count >= 60, "two seconds of 30 fps frames shown, \(count)")
            // Counted without holding them (an array of the frames would keep them alive).
            let alive = shown.withLock { $0.filter { $0.frame != nil }.count }
            #expect((1...VideoOutput.heldFrameLimit).contains(alive), "\(alive) of \(count) shown frames still held")
            #expect(shown.withLock { $0.last?.frame != nil }, "the newest is one of them")
            item.remove(output)
            await driver.advance(by: 0)
            #expect(shown.withLock { $0.allSatisfy { $0.frame == nil } }, "removed: nothing held")
            _ = player
        }
    }

    @Test("pixel format choice: BGRA, ARGB, or BGRA for a format not offered; buffer locks are counted")
    func formats() throws {
        #expect(AVPlayerItemVideoOutput(pixelBufferAttributes: nil).pixelFormatType == kCVPixelFormatType_32BGRA)
        let argb = [kCVPixelBufferPixelFormatTypeKey as String: Int(kCVPixelFormatType_32ARGB)]
        #expect(AVPlayerItemVideoOutput(pixelBufferAttributes: argb).pixelFormatType == kCVPixelFormatType_32ARGB)
        let biplanar: OSType = 0x3432_3076  // '420v'
        let other = [kCVPixelBufferPixelFormatTypeKey as String: biplanar]
        #expect(AVPlayerItemVideoOutput(pixelBufferAttributes: other).pixelFormatType == kCVPixelFormatType_32BGRA)
        let buffer = try #require(
            CVPixelBuffer(
                width: 2, height: 1, bytesPerRow: 8, pixelFormatType: kCVPixelFormatType_32BGRA,
                pixels: [1, 2, 3, 4, 5, 6, 7, 8]))
        #expect(Self.pixels(buffer) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(CVPixelBufferUnlockBaseAddress(buffer, []) == kCVReturnInvalidArgument, "not locked")
        #expect(CVPixelBuffer(width: 2, height: 2, bytesPerRow: 8, pixelFormatType: 0, pixels: [0]) == nil)
    }
}

import Foundation
import Loading
import Locking
import MediaCore
import Playback
import PlaybackTesting
import Streaming
import Testing

/// A live HLS stream (scripts/ladder-live.sh: ffmpeg encoding in real time into a sliding window of 5 segments)
/// played through the stream session: from its live edge, the playlist reloaded as it grows. In the realtime group
/// of scripts/test.sh: the stream comes at the pace of a real encoder.
@Suite(
    "Adaptive streaming: a live playlist", .serialized,
    .enabled(if: TestHTTPServer.skipReason == nil && LadderMedia.skipReason == nil, "needs scripts/netns.sh"))
struct LiveStreamTests {
    @Test("it plays from its live edge as the playlist grows, each segment fetched once, times continuous")
    func playsAtTheEdge() async throws {
        let root = try #require(TestHTTPServer.root)
        let folder = "live-\(UUID().uuidString.prefix(8))"
        let script = Repository.path("scripts/ladder-live.sh")
        let started = try await ProcessRunner.run("/bin/bash", [script, "\(root)/\(folder)", "40"], timeout: 60)
        try #require(started.exitStatus == 0, "the live encoder starts")
        defer { _ = try? ProcessRunner.run("/bin/bash", [script, "--stop", "\(root)/\(folder)"], timeout: 30) }
        // Three segments listed: the edge is the first of them (three target durations before the end).
        try await waitUntil("three segments listed", timeout: .seconds(30)) {
            let text = (try? String(contentsOfFile: "\(root)/\(folder)/live.m3u8", encoding: .utf8)) ?? ""
            return text.components(separatedBy: "#EXTINF").count > 3
        }
        let url = TestHTTPServer.url("\(folder)/live.m3u8")
        // Under the untimed clock the play reaches the edge at once, then goes on as segments are listed: 8 s of
        // media past the first three segments' 6 take the encoder 8 s more.
        let play = try await LivePlay.run(url, seconds: 14)
        defer { play.player.invalidate() }
        // Three 2 s target durations recommended; the untimed play keeps up with the encoder, so it is within a few
        // segments of the playlist's end.
        play.check(recommended: 6, within: 0...8)
        let segments = TestHTTPServer.responses(containing: "/\(folder)/live0")
        let names = segments.map(\.request)
        #expect(Set(names).count == names.count, "each segment once: \(names)")
        let reloads = TestHTTPServer.responses(containing: "/\(folder)/live.m3u8").count
        #expect(reloads >= 4, "the playlist was reloaded as it grew (\(reloads) loads)")
    }

    @Test("a live ladder of two variants: it starts low and switches up at a segment boundary, times continuous")
    func switchesVariantsLive() async throws {
        let root = try #require(TestHTTPServer.root)
        let folder = "live-\(UUID().uuidString.prefix(8))"
        let script = Repository.path("scripts/ladder-live.sh")
        let started = try await ProcessRunner.run("/bin/bash", [script, "\(root)/\(folder)", "40", "2"], timeout: 60)
        try #require(started.exitStatus == 0, "the live encoder starts")
        defer { _ = try? ProcessRunner.run("/bin/bash", [script, "--stop", "\(root)/\(folder)"], timeout: 30) }
        try await waitUntil("three segments listed", timeout: .seconds(30)) {
            let text = (try? String(contentsOfFile: "\(root)/\(folder)/live0.m3u8", encoding: .utf8)) ?? ""
            return text.components(separatedBy: "#EXTINF").count > 3
        }
        let url = TestHTTPServer.url("\(folder)/live.m3u8")
        let player = Player(clock: .untimed, audio: false)
        defer { player.invalidate() }
        let frames = Locked<[(time: Double, width: Int)]>([])
        player.add(VideoSink { frame in frames.withLock { $0.append((frame.time.seconds, frame.width)) } })
        let item = PlayerItem(url: url, loading: RemoteLoading(cache: ByteCache()))
        // No estimate yet: the play starts on the guess (500 kbit/s: the 320x180 variant), the first segment
        // measured takes it up (the shaped link carries 8 Mbit/s).
        item.bandwidthEstimate = SharedBandwidthEstimate()
        player.replaceCurrentItem(with: item)
        player.play()
        try await waitUntil("10 s of media played", timeout: .seconds(60)) {
            frames.withLock { $0.count } >= 10 * 30 || item.status == .failed
        }
        #expect(item.status == .readyToPlay, "\(String(describing: item.error))")
        let switches = item.variantSwitches
        #expect(switches.first?.to.resolution?.width == 320, "started low: \(switches)")
        let up = try #require(switches.dropFirst().first, "switched: \(switches)")
        #expect(up.to.resolution?.width == 640)
        let shown = frames.withLock { $0 }
        #expect(shown.first?.width == 320 && shown.last?.width == 640, "the picture changed size")
        let times = shown.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 0.002 }, "no gap, no repeat")
        #expect(item.presentationSize?.width == 640)
        // Segments of both variants, each fetched once; the master once; the variants' playlists reloaded.
        let low = TestHTTPServer.responses(containing: "/\(folder)/live1_").map(\.request)
        let high = TestHTTPServer.responses(containing: "/\(folder)/live0_").map(\.request)
        #expect(!low.isEmpty && !high.isEmpty, "\(low) \(high)")
        #expect(Set(low + high).count == low.count + high.count, "each segment once")
        #expect(TestHTTPServer.responses(containing: "/\(folder)/live.m3u8").count == 1)
        #expect(TestHTTPServer.responses(containing: "/\(folder)/live0.m3u8").count >= 3)
    }

    @Test("a live presentation whose audio is a rendition of its own: both from the edge, in step, reloaded")
    func playsAudioRendition() async throws {
        let root = try #require(TestHTTPServer.root)
        let folder = "live-\(UUID().uuidString.prefix(8))"
        let script = Repository.path("scripts/ladder-live.sh")
        let started = try await ProcessRunner.run("/bin/bash", [script, "\(root)/\(folder)", "40", "a"], timeout: 60)
        try #require(started.exitStatus == 0, "the live encoder starts")
        defer { _ = try? ProcessRunner.run("/bin/bash", [script, "--stop", "\(root)/\(folder)"], timeout: 30) }
        try await waitUntil("three segments listed", timeout: .seconds(30)) {
            let text = (try? String(contentsOfFile: "\(root)/\(folder)/live0.m3u8", encoding: .utf8)) ?? ""
            return text.components(separatedBy: "#EXTINF").count > 3
        }
        let player = Player(clock: .untimed, audio: true)
        defer { player.invalidate() }
        let frames = Locked<[Double]>([])
        let buffers = Locked<[(time: Double, duration: Double)]>([])
        player.add(VideoSink { frame in frames.withLock { $0.append(frame.time.seconds) } })
        player.add(
            AudioTap { buffer in buffers.withLock { $0.append((buffer.time.seconds, buffer.duration.seconds)) } })
        let item = PlayerItem(
            url: TestHTTPServer.url("\(folder)/live.m3u8"), loading: RemoteLoading(cache: ByteCache()))
        player.replaceCurrentItem(with: item)
        player.play()
        try await waitUntil("10 s of media played", timeout: .seconds(60)) {
            frames.withLock { $0.count } >= 10 * 30 || item.status == .failed
        }
        await player.callbacksDelivered()
        #expect(item.status == .readyToPlay, "\(String(describing: item.error))")
        #expect(item.duration.isIndefinite && item.tracks.map(\.kind) == [.video, .audio], "\(item.tracks)")
        let shown = frames.withLock { $0 }
        let heard = buffers.withLock { $0 }
        let firstFrame = try #require(shown.first)
        let firstSound = try #require(heard.first, "audio played")
        // The rendition's segment matching the video's first (by program date): its first sample within a few AAC
        // frames of the first picture (ffmpeg cuts the audio every 94 frames, 5.3 ms longer than the video's 2 s).
        #expect(abs(firstSound.time - firstFrame) < 0.1, "audio at \(firstSound.time) s, video at \(firstFrame) s")
        #expect(zip(shown, shown.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 0.002 }, "no video gap")
        let gaps = zip(heard, heard.dropFirst()).filter { abs($0.time + $0.duration - $1.time) > 0.001 }
        #expect(gaps.isEmpty, "the audio goes on without a gap or overlap across segments: \(gaps.prefix(3))")
        let heardEnd = (heard.last?.time ?? 0) + (heard.last?.duration ?? 0)
        #expect(heardEnd - firstFrame > 8, "8 s of audio or more beside the video: to \(heardEnd) s")
        // Audio segments each fetched once; its playlist reloaded as it grew (the master loaded once).
        let audio = TestHTTPServer.responses(containing: "/\(folder)/live1_").map(\.request)
        #expect(audio.count >= 4 && Set(audio).count == audio.count, "\(audio)")
        #expect(TestHTTPServer.responses(containing: "/\(folder)/live1.m3u8").count >= 3)
        #expect(TestHTTPServer.responses(containing: "/\(folder)/live.m3u8").count == 1)
    }

    @Test("a live audio rendition whose playlist stops changing fails the play: .timedOut naming it, no hang")
    func stalledAudioRendition() async throws {
        let root = try #require(TestHTTPServer.root)
        let folder = "live-\(UUID().uuidString.prefix(8))"
        let script = Repository.path("scripts/ladder-live.sh")
        let started = try await ProcessRunner.run("/bin/bash", [script, "\(root)/\(folder)", "40", "a"], timeout: 60)
        try #require(started.exitStatus == 0, "the live encoder starts")
        defer { _ = try? ProcessRunner.run("/bin/bash", [script, "--stop", "\(root)/\(folder)"], timeout: 30) }
        try await waitUntil("three audio segments listed", timeout: .seconds(30)) {
            let text = (try? String(contentsOfFile: "\(root)/\(folder)/live1.m3u8", encoding: .utf8)) ?? ""
            return text.components(separatedBy: "#EXTINF").count > 3
        }
        // A copy of the audio playlist as it is now, never updated, named by a master beside the encoder's video.
        let directory = "\(root)/\(folder)"
        try FileManager.default.copyItem(atPath: "\(directory)/live1.m3u8", toPath: "\(directory)/frozen.m3u8")
        let master = try String(contentsOfFile: "\(directory)/live.m3u8", encoding: .utf8)
            .replacingOccurrences(of: #"URI="live1.m3u8""#, with: #"URI="frozen.m3u8""#)
        try master.write(toFile: "\(directory)/stalled.m3u8", atomically: true, encoding: .utf8)
        let player = Player(clock: .untimed, audio: true)
        defer { player.invalidate() }
        let frames = Locked(0)
        player.add(VideoSink { _ in frames.withLock { $0 += 1 } })
        let item = PlayerItem(
            url: TestHTTPServer.url("\(folder)/stalled.m3u8"), loading: RemoteLoading(cache: ByteCache()))
        let events = player.events()
        player.replaceCurrentItem(with: item)
        player.play()
        // Six reloads without change: 2 s, then 1 s each, after the segments listed were read.
        let failure = try await itemEnd(in: events, of: item.url, timeout: .seconds(60))?.kind.itemFailure
        #expect(item.error?.kind == .timedOut, "\(String(describing: item.error))")
        #expect(item.error?.url == TestHTTPServer.url("\(folder)/frozen.m3u8"), "\(String(describing: item.error))")
        #expect(failure?.contains("frozen.m3u8") == true, "\(String(describing: failure))")
        #expect(frames.withLock { $0 } > 0, "the video played until then")
        #expect(TestHTTPServer.responses(containing: "/\(folder)/frozen.m3u8").count >= 6)
    }
}

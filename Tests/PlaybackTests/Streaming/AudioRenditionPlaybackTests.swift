import Foundation
import Loading
import Locking
import MediaCore
import Playback
import PlaybackTesting
import Testing

/// Presentations whose audio is a rendition of its own (the DASH ladder's audio AdaptationSet; `hls-audio/`'s
/// `#EXT-X-MEDIA:TYPE=AUDIO` with a URI beside video-only variants), played through the stream session: the audio
/// decoded sample for sample as ffmpeg decodes the progressive reference, the video frame for frame, each audio
/// segment fetched once, exact seeks landing in both.
@Suite(
    "Adaptive streaming: separate audio renditions", .serialized,
    .enabled(if: TestHTTPServer.skipReason == nil && LadderMedia.skipReason == nil, "needs scripts/netns.sh"))
struct AudioRenditionPlaybackTests {
    static let manifests = ["dash/manifest.mpd", "hls-audio/master.m3u8"]

    /// The reference's sample frames a play of `manifest` ends without: ffmpeg 5.1's DASH muxer put the audio's last
    /// AAC frame (21 ms past the MPD's 12 s) in a 7th chunk the MPD does not list (12 s of 2 s segments), which no
    /// player reads; `hls-audio/` lists it (its 7th segment, 21 ms long).
    static func framesMissing(_ manifest: String) -> Int { manifest.hasPrefix("dash") ? 1024 : 0 }

    /// The audio segments (and initialization section) of `manifest`'s rendition, by their paths' ends.
    static func isAudio(_ request: String, _ manifest: String) -> Bool {
        manifest.hasPrefix("dash") ? request.contains("stream4") : request.contains("/hls-audio/audio/")
    }

    /// Whether `buffer` holds the reference's samples at its time: item time 0 is the rendition's first sample, the
    /// encoder's priming (1024 frames the reference does not have).
    static func matches(_ buffer: AudioBuffer, _ reference: [Float], within tolerance: Float = 0) -> Bool {
        let frame = Int(buffer.time.convertScale(48_000).value) - LadderMedia.audioPriming
        let offset = frame * 2
        guard buffer.channels == 2, buffer.sampleRate == 48_000, offset >= 0,
            offset + buffer.samples.count <= reference.count
        else { return false }
        return zip(reference[offset..<offset + buffer.samples.count], buffer.samples).allSatisfy {
            abs($0 - $1) <= tolerance
        }
    }

    @Test(
        "its lowest rung plays to the end with its audio rendition: samples and frames bit-exact, fetched once",
        arguments: manifests)
    func playsAudio(manifest: String) async throws {
        let frameReference = try await LadderReference.md5s(rung: 0)
        let reference = try await LadderMedia.audioSamples()
        let ladder = try LadderReference.privateLadder()
        let item = PlayerItem(
            url: TestHTTPServer.url("\(ladder)/\(manifest)"), loading: RemoteLoading(cache: ByteCache()))
        item.preferredPeakBitRate = 1_200_000
        let player = Player(clock: .untimed, audio: true)
        defer { player.invalidate() }
        let frames = Locked<[String]>([])
        let buffers = Locked<[AudioBuffer]>([])
        player.add(VideoSink { frame in frames.withLock { $0.append(frame.md5()) } })
        player.add(AudioTap { buffer in buffers.withLock { $0.append(buffer) } })
        let events = player.events()
        player.replaceCurrentItem(with: item)
        player.play()
        _ = try await itemEnd(in: events, of: item.url)
        await player.callbacksDelivered()
        #expect(item.status == .readyToPlay, "\(String(describing: item.error))")
        #expect(item.tracks.map(\.kind) == [.video, .audio], "\(item.tracks)")
        let shown = frames.withLock { $0 }
        #expect(shown.count == 360 && shown == frameReference, "\(shown.count) frames, bit-exact")

        let played = buffers.withLock { $0 }
        let samples = played.flatMap(\.samples)
        // The rendition's samples: the priming, then the reference's, every one (but what the MPD leaves out).
        let expected = reference.count + 2 * (LadderMedia.audioPriming - Self.framesMissing(manifest))
        #expect(samples.count == expected, "\(samples.count) samples, not \(expected)")
        let decoded = samples.dropFirst(2 * LadderMedia.audioPriming)
        #expect(decoded.elementsEqual(reference.prefix(decoded.count)), "bit-exact with ffmpeg's decode")
        // The first buffer is the priming, at 0; every other holds the reference's samples at its time.
        #expect(played.first?.time == .zero && played.first?.frameCount == LadderMedia.audioPriming)
        let wrong = played.dropFirst().filter { !Self.matches($0, reference) }
        #expect(wrong.isEmpty, "each at its time: not \(wrong.map { ($0.time.seconds, $0.frameCount) })")

        let requests = LadderReference.requests(under: ladder)
        var seen: [String: Int] = [:]
        for request in requests { seen["\(request.request) \(request.range)", default: 0] += 1 }
        #expect(seen.values.allSatisfy { $0 == 1 }, "each resource once: \(seen.filter { $0.value > 1 })")
        let audio = requests.filter { Self.isAudio($0.request, manifest) && !$0.request.contains(".m3u8") }
        // The initialization section and 6 segments (DASH) or 7 (hls-audio's last is 21 ms).
        #expect(audio.count == (manifest.hasPrefix("dash") ? 7 : 8), "\(audio.map(\.request))")
        #expect(audio.allSatisfy { $0.status == 200 || $0.status == 206 })
    }

    @Test(
        "exact seeks land the audio at the target sample, and it plays on from there at its times",
        arguments: manifests)
    func seeksAudio(manifest: String) async throws {
        let frameReference = try await LadderReference.md5s(rung: 0)
        let reference = try await LadderMedia.audioSamples()
        let clock = ManualClock()
        let player = Player(clock: .manual(clock), audio: true)
        defer { player.invalidate() }
        let layer = PlayerLayer(player: player)
        let buffers = Locked<[AudioBuffer]>([])
        player.add(AudioTap { buffer in buffers.withLock { $0.append(buffer) } })
        let item = PlayerItem(url: LadderMedia.url(manifest), loading: RemoteLoading(cache: ByteCache()))
        item.preferredPeakBitRate = 1_200_000
        player.replaceCurrentItem(with: item)
        await clock.advance(by: .zero)
        #expect(item.tracks.contains { $0.kind == .audio }, "\(item.tracks)")
        player.play()
        for index in [225, 61, 130, 310] {
            // 25 ms into frame `index`: the timelines start with the audio, 21 ms before the first picture.
            let target = Double(index) / 30 + 0.025
            #expect(await player.seek(to: MediaTime(seconds: target), toleranceBefore: .zero, toleranceAfter: .zero))
            #expect(layer.currentFrame?.md5() == frameReference[index], "the frame at \(target) s")
            for _ in 0..<5 { await clock.advance(bySeconds: 0.1) }
            await player.callbacksDelivered()
            let played = buffers.withLock { $0 }.drop { $0.time.seconds < target - 1e-6 }
            buffers.withLock { $0.removeAll() }
            let first = try #require(played.first, "audio after the seek to \(target) s")
            #expect(abs(first.time.seconds - target) < 0.001, "the first buffer at \(first.time.seconds) s")
            // Within 1e-4 of the reference (a 440 Hz sine of amplitude 0.09): after some seeks the engine's AAC
            // decode differs from a decode from the start by up to 1e-5, here as for the muxed audio of hls-fmp4/
            // (seeks to 2.058 s and 4.358 s; 7.525 s and 10.358 s are bit-exact), which this suite does not fix.
            let wrong = played.filter { !Self.matches($0, reference, within: 1e-4) }
            #expect(wrong.isEmpty, "bit-exact from \(target) s: not \(wrong.map { ($0.time.seconds, $0.frameCount) })")
            let frames = played.reduce(0) { $0 + $1.frameCount }
            #expect(frames >= 48_000 * 4 / 10, "it plays on: \(frames) sample frames in 0.5 s")
            let ends = zip(played, played.dropFirst()).allSatisfy { previous, next in
                abs(previous.time.seconds + previous.duration.seconds - next.time.seconds) < 1e-6
            }
            #expect(ends, "no gap, no overlap after \(target) s")
        }
    }
}

extension AudioRenditionPlaybackTests {
    @Test("an audio rendition whose playlist is missing fails the item with a typed 404 naming its URL, no hang")
    func missingAudioPlaylist() async throws {
        let master = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",DEFAULT=YES,AUTOSELECT=YES,URI="missing-audio.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,AUDIO="aud"
            ../ladder/hls-audio/v0/index.m3u8

            """
        let url = try StreamFaultTests.serve("master.m3u8", master)
        let started = ContinuousClock.now
        let (error, failure, frames) = try await StreamFaultTests.play(url)
        #expect(error?.kind == .httpStatus && error?.code == 404, "\(String(describing: error))")
        #expect(error?.url.hasSuffix("/missing-audio.m3u8") == true, "\(String(describing: error?.url))")
        #expect(failure?.contains("missing-audio.m3u8") == true, "\(String(describing: failure))")
        #expect(frames == 0)
        #expect(ContinuousClock.now - started < .seconds(30), "failed at once, not after a wait")
    }
}

extension AudioRenditionPlaybackTests {
    @Test("a missing audio segment fails the play where it is, a typed 404 naming the segment's URL, no hang")
    func missingAudioSegment() async throws {
        let audio = try String(contentsOfFile: LadderMedia.path("hls-audio/audio/index.m3u8"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                switch line {
                case "seg003.m4s": return "missing-audio-segment.m4s"
                case let segment where segment.hasSuffix(".m4s"): return "../ladder/hls-audio/audio/\(segment)"
                case let map where map.hasPrefix("#EXT-X-MAP"):
                    return "#EXT-X-MAP:URI=\"../ladder/hls-audio/audio/init.mp4\""
                default: return String(line)
                }
            }
            .joined(separator: "\n")
        let playlist = try StreamFaultTests.serve("audio.m3u8", audio)
        let master = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",DEFAULT=YES,URI="\(playlist)"
            #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,AUDIO="aud"
            \(LadderMedia.url("hls-audio/v0/index.m3u8"))

            """
        let item = PlayerItem(
            url: try StreamFaultTests.serve("master.m3u8", master), loading: RemoteLoading(cache: ByteCache()))
        let player = Player(clock: .untimed, audio: true)
        defer { player.invalidate() }
        let events = player.events()
        player.replaceCurrentItem(with: item)
        player.play()
        let failure = try await itemEnd(in: events, of: item.url, timeout: .seconds(60))?.kind.itemFailure
        #expect(item.error?.kind == .httpStatus && item.error?.code == 404, "\(String(describing: item.error))")
        #expect(item.error?.url.hasSuffix("/missing-audio-segment.m4s") == true)
        #expect(failure?.contains("missing-audio-segment.m4s") == true, "\(String(describing: failure))")
        #expect(player.currentTime().seconds > 4 && player.currentTime().seconds < 8, "\(player.currentTime())")
    }
}

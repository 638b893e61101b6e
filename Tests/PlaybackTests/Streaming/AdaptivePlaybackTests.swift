import Foundation
import Loading
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Streaming
import Testing

/// HLS and DASH ladders played through the stream session (scripts/make-ladder-media.sh, served by nginx through
/// scripts/netns.sh): every frame against ffmpeg's decode of the rendition, every resource fetched once, switches
/// at segment boundaries with no gap and no repeated frame.
@Suite(
    "Adaptive streaming: HLS and DASH through the loader", .serialized,
    .enabled(if: TestHTTPServer.skipReason == nil && LadderMedia.skipReason == nil, "needs scripts/netns.sh"))
struct AdaptivePlaybackTests {
    /// Plays `item` to its end under the untimed clock (120 s at most); the md5 and size of every frame shown, and
    /// the trace.
    static func play(
        _ item: PlayerItem, during: (@Sendable (Player, Int) -> Void)? = nil
    ) async throws -> (frames: [(md5: String, width: Int, seconds: Double)], trace: [String]) {
        let player = Player(clock: .untimed, audio: true)
        defer { player.invalidate() }
        let frames = Locked<[(md5: String, width: Int, seconds: Double)]>([])
        player.add(
            VideoSink { frame in
                let count = frames.withLock { list in
                    list.append((frame.md5(), frame.width, frame.time.seconds))
                    return list.count
                }
                during?(player, count)
            })
        let recorder = TraceRecorder(player)
        let events = player.events()
        player.replaceCurrentItem(with: item)
        player.play()
        _ = try await itemEnd(in: events, of: item.url)
        await player.callbacksDelivered()
        return (frames.withLock { $0 }, await recorder.snapshot())
    }

    @Test(
        "each format plays its lowest rung to the end, frame for frame as ffmpeg decodes it, each resource once",
        arguments: ["hls-ts/master.m3u8", "hls-fmp4/master.m3u8", "dash/manifest.mpd", "hls-byterange/index.m3u8"])
    func lowestRung(manifest: String) async throws {
        let reference = try await LadderReference.md5s(rung: 0)
        let ladder = try LadderReference.privateLadder()
        let item = PlayerItem(
            url: TestHTTPServer.url("\(ladder)/\(manifest)"), loading: RemoteLoading(cache: ByteCache()))
        item.preferredPeakBitRate = 1_200_000
        let (frames, trace) = try await Self.play(item)
        #expect(item.status == .readyToPlay, "\(trace.joined(separator: "\n"))")
        #expect(frames.count == 360, "\(trace.suffix(5))")
        #expect(frames.map(\.md5) == Array(reference.prefix(frames.count)))
        let times = frames.map(\.seconds)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 0.002 }, "continuous times")
        let requests = LadderReference.requests(under: ladder)
        var seen: [String: Int] = [:]
        for request in requests { seen["\(request.request) \(request.range)", default: 0] += 1 }
        #expect(seen.values.allSatisfy { $0 == 1 }, "\(seen.filter { $0.value > 1 })")
        #expect(!requests.contains { $0.request.contains("/v1/") || $0.request.contains("/v2/") }, "v0 only")
        #expect(item.variantSwitches.count == 1)
        if !manifest.hasSuffix("index.m3u8") {
            #expect(item.variantSwitches.first?.to.resolution?.width == 640, "the lowest rung")
        }
    }

    @Test(
        "a peak bit rate set while a 1080p play runs switches it to 360p at a segment boundary, no frame lost",
        arguments: ["hls-ts/master.m3u8", "hls-fmp4/master.m3u8", "dash/manifest.mpd"])
    func switchDown(manifest: String) async throws {
        let high = try await LadderReference.md5s(rung: 3)
        let low = try await LadderReference.md5s(rung: 0)
        // A link known to be fast: the session starts on the highest rung.
        let item = PlayerItem(url: LadderMedia.url(manifest), loading: RemoteLoading(cache: ByteCache()))
        item.bandwidthEstimate = .known(100_000_000)
        item.preferredForwardBufferDuration = 2
        let (frames, trace) = try await Self.play(item) { _, count in
            if count == 45 { item.preferredPeakBitRate = 1_200_000 }
        }
        #expect(frames.count == 360, "\(trace.suffix(5))")
        let first = try #require(frames.first)
        #expect(first.width == 1920)
        let switchAt = try #require(frames.firstIndex { $0.width == 640 }, "it switched")
        #expect(switchAt % 60 == 0, "at a segment boundary: frame \(switchAt)")
        #expect(frames[switchAt...].allSatisfy { $0.width == 640 })
        let expected = Array(high[..<switchAt]) + Array(low[switchAt...])
        #expect(frames.map(\.md5) == expected, "bit-exact on both sides of the switch")
        let times = frames.map(\.seconds)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 0.002 }, "no gap, no repeat")
        let switches = item.variantSwitches
        #expect(switches.count == 2 && switches.last?.reason == "limits", "\(switches.map(\.reason))")
        #expect(trace.filter { $0.contains("variantSwitch") }.count == 2, "each switch is an event")
        #expect(item.presentationSize?.width ?? 0 > 0)
    }

    @Test(
        "a paused item's loadedTimeRanges are the segments it holds ahead, not the whole presentation",
        arguments: ["hls-ts/master.m3u8", "dash/manifest.mpd"])
    func loadedTimeRanges(manifest: String) async throws {
        let clock = ManualClock()
        let player = Player(clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let item = PlayerItem(url: LadderMedia.url(manifest), loading: RemoteLoading(cache: ByteCache()))
        item.preferredForwardBufferDuration = 4
        player.replaceCurrentItem(with: item)
        await clock.advance(by: .zero)
        try await waitUntil("4 s of segments held ahead") { (item.loadedTimeRanges.first?.end.seconds ?? 0) >= 4 }
        // The downloads stop at the forward buffer: 2 s segments past the one read, at most 3 more (0-8 s of 12).
        let ranges = item.loadedTimeRanges
        #expect(ranges.count == 1 && ranges.first?.start == .zero, "\(ranges)")
        #expect((ranges.first?.end.seconds ?? 0) <= 8, "not the whole 12 s: \(ranges)")
    }

    @Test(
        "exact seeks in an HLS play land on the frame ffmpeg decodes at that time", arguments: ["hls-ts", "hls-fmp4"])
    func exactSeeks(folder: String) async throws {
        let reference = try await LadderReference.md5s(rung: 0)
        let clock = ManualClock()
        let player = Player(clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let layer = PlayerLayer(player: player)
        let item = PlayerItem(
            url: LadderMedia.url("\(folder)/master.m3u8"), loading: RemoteLoading(cache: ByteCache()))
        item.preferredPeakBitRate = 1_200_000
        player.replaceCurrentItem(with: item)
        await clock.advance(by: .zero)
        // Each target 25 ms into its frame: the renditions' timelines start with their audio, 21 ms before the first
        // picture (the progressive reference's with its picture), and 25 ms is in the same frame on both.
        for index in [225, 3, 357, 120, 61, 59, 60] {
            let target = Double(index) / 30 + 0.025
            #expect(await player.seek(to: MediaTime(seconds: target), toleranceBefore: .zero, toleranceAfter: .zero))
            let shown = layer.currentFrame?.md5()
            #expect(
                shown == reference[index],
                "at \(target) s (frame \(index)): frame \(shown.flatMap { reference.firstIndex(of: $0) }.map(String.init) ?? "none")"
            )
        }
    }
}

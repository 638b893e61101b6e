import Foundation
import Loading
import MediaIO
import Playback
import PlaybackTesting

/// `playctl-bench run --network`: remote playback measured over scripts/netns.sh's shaped loopback, in one run.
///
/// 1. Time to first frame of a remote clip (`hd.mp4` by default) over the 8 Mbit/s port, then the 20 and 2 Mbit/s
///    ports: `playctl play U --frames 1` against `ffmpeg -i U -frames:v 1 -f null -` and `mpv --no-config --frames=1
///    --vo=null --ao=null U`, each a process timed from start to exit, alternating, after one warm-up run each. Every
///    run starts cold (a new process, so no connection is reused and playctl's byte cache, memory only, is empty)
///    on an idle link (``LinkQuiet``). The figure is playctl's median over the lower of ffmpeg's and mpv's; the
///    target (at most 1.0x) is set at 8 Mbit/s.
/// 2. A second play from the cache: after one full play over 8 Mbit/s into a `ByteCache` with a disk directory, the
///    startup (`PlayerItem` + `Player` + `play()` until the first frame is shown, video only, as `bench --playback`
///    measures it) of the URL from that same cache (memory tier) and from a new cache on the same directory (disk
///    tier, as a later process would find it), against the startup of the local copy of the file; target at most
///    1.1x. The cached starts must fetch nothing.
/// 3. Bytes transferred for a full play (untimed clock, with audio, over 8 Mbit/s, a new memory-only cache as
///    `ByteCache.shared` is) against the file's size; target at most 1.02x.
public struct NetworkBench: Sendable {
    /// Time to first frame allowed, as a multiple of the faster of ffmpeg and mpv (at 8 Mbit/s).
    public static let firstFrameTarget = 1.0
    /// Startup from the cache allowed, as a multiple of the local file's.
    public static let cachedStartupTarget = 1.1
    /// Bytes a full play may transfer, as a multiple of the file's size.
    public static let bytesTarget = 1.02
    /// The served file measured when `--file` is absent (made by scripts/make-http-media.sh).
    public static let defaultFile = "hd.mp4"
    /// The links the first frame is timed over: the one the target is set at first.
    public static let links: [TestHTTPServer.Link] = [.mbit8, .mbit20, .mbit2]
    /// The link the cache and byte figures are measured over.
    public static let mainLink = TestHTTPServer.Link.mbit8

    /// The name of a file in the served folder.
    public let file: String
    /// Timed runs per command (and startups per median).
    public let runs: Int
    /// The playctl executable timed.
    public let playctl: String

    /// A bench of `file` (a name in the served folder; nil for `hd.mp4`), `runs` timed runs per command.
    public init(file: String?, runs: Int, playctl: String = BenchTools.playctl()) {
        self.file = file ?? Self.defaultFile
        self.runs = runs
        self.playctl = playctl
    }

    /// Why the bench cannot run here: it needs the server scripts/netns.sh starts (nil when it runs).
    public static var unavailableReason: String? {
        guard TestHTTPServer.base == nil || TestHTTPServer.root == nil else { return nil }
        return "bench --network measures over the test HTTP server on a shaped loopback, which is not running "
            + "(PLAYCTL_HTTP is not set): run it through scripts/bench.sh --network"
    }

    /// Measures everything, saying each step on `progress`.
    /// - Throws: `BenchFailure` when the server or ffmpeg is missing, the file is not served, a command fails, or a
    ///   play fails.
    public func run(progress: @Sendable (String) -> Void) async throws(BenchFailure) -> NetworkReport {
        if let reason = Self.unavailableReason { throw .failed(reason) }
        let loadBefore = LoadAverage.oneMinute()
        let tools = try BenchTools.find(progress: progress)
        let local = TestHTTPServer.localPath(file)
        guard !file.contains("/"), access(local, R_OK) == 0 else {
            throw .failed("\(file) is not a file of the served folder (\(TestHTTPServer.root ?? "?"))")
        }
        let demuxer = try media { () throws(MediaError) in try Demuxer(url: local) }
        guard let track = demuxer.videoTrack else { throw .failed("\(local): no video track to benchmark") }
        let size = (try? FileManager.default.attributesOfItem(atPath: local)[.size] as? NSNumber)?.int64Value ?? 0
        let quiet = LinkQuiet.find(shaped: TestHTTPServer.isShaped)
        if TestHTTPServer.isShaped && quiet.tc == nil {
            progress("tc not found: runs cannot wait for an idle link, only settle")
        }

        var firstFrame: [NetworkReport.LinkTimings] = []
        for link in Self.links {
            let url = TestHTTPServer.url(file, over: link)
            let cases = BenchCase.firstFrame(of: url, playctl: playctl, tools: tools)
            progress(
                "first frame over \(NetworkReport.name(of: link)): \(runs) runs each of "
                    + cases.map(\.tool).joined(separator: ", "))
            let timings = try BenchRunner.measure(cases, runs: runs, progress: progress, beforeEachRun: quiet.wait)
            firstFrame.append(NetworkReport.LinkTimings(link: link, url: url, timings: timings))
        }

        let url = TestHTTPServer.url(file, over: Self.mainLink)
        progress("bytes of a full play over \(NetworkReport.name(of: Self.mainLink))")
        quiet.wait()
        let fullPlay = try await Self.fullPlay(url, cache: ByteCache())

        progress("second play from the cache: \(runs) startups each")
        quiet.wait()
        let cached = try await cachedStartups(url, local: local)

        return NetworkReport(
            file: file, localPath: local, fileBytes: size, track: track, duration: demuxer.duration,
            shaped: TestHTTPServer.isShaped, waitsForIdleLink: quiet.tc != nil, busyWaits: quiet.busyWaits,
            tools: tools, playctl: playctl,
            runs: runs, firstFrame: firstFrame, cachedStartup: cached, fullPlay: fullPlay,
            loadAverage: (loadBefore, LoadAverage.oneMinute()))
    }

    /// Plays `url` to its end through `cache` (untimed clock, with audio) and says what the cache fetched.
    static func fullPlay(_ url: String, cache: ByteCache) async throws(BenchFailure) -> NetworkReport.FullPlay {
        let start = ProcessRunner.monotonicSeconds()
        let item = PlayerItem(url: url, loading: RemoteLoading(cache: cache, transport: HTTPLoader.shared))
        if let failure = await playToEnd(item) { throw .failed("playing \(url) to its end failed: \(failure)") }
        let statistics = cache.currentStatistics
        return NetworkReport.FullPlay(
            bytesFetched: statistics.bytesFetched, bytesReceived: statistics.bytesReceived,
            transfers: statistics.transfersStarted, seconds: ProcessRunner.monotonicSeconds() - start)
    }

    /// Plays `item` to its end on an untimed clock; the failure, if it fails.
    static func playToEnd(_ item: PlayerItem) async -> String? {
        let player = Player(clock: .untimed, audio: true)
        let events = player.events()
        player.replaceCurrentItem(with: item)
        player.play()
        var failure: String?
        for await event in events {
            if case .didPlayToEnd = event.kind { break }
            if case .itemStatus(.failed, _, let error) = event.kind {
                failure = error ?? "the item failed"
                break
            }
            if case .failedToPlayToEnd(let error) = event.kind {
                failure = error
                break
            }
        }
        player.invalidate()
        return failure
    }

    /// Fills a disk-backed cache with one full play of `url`, then times startups of the local file, of `url` from
    /// that cache, and of `url` from a new cache on the same directory, rotating their order from round to round.
    func cachedStartups(_ url: String, local: String) async throws(BenchFailure) -> NetworkReport.CachedStartup {
        let directory: URL
        do {
            directory = try TemporaryDirectory.make(prefix: "playctl-bench-cache")
        } catch {
            throw .failed("cannot make a cache directory: \(error)")
        }
        defer { TemporaryDirectory.remove(directory) }
        let configuration = ByteCache.Configuration(directory: directory.path)
        let filled = try media { () throws(MediaError) in try ByteCache(configuration) }
        let fill = try await Self.fullPlay(url, cache: filled)
        // The chunks are on disk before a new cache opens the directory (they are written on the tier's thread).
        filled.flush()
        let size = (try? FileManager.default.attributesOfItem(atPath: local)[.size] as? NSNumber)?.int64Value ?? 0
        guard filled.cachedRanges(of: url) == [0..<size] else {
            throw .failed("a full play of \(url) left the cache holding \(filled.cachedRanges(of: url)), not the file")
        }
        let fetchedBefore = filled.currentStatistics.bytesFetched
        var result = NetworkReport.CachedStartup(fill: fill)
        for round in 0..<runs {
            for offset in 0..<3 {
                switch (round + offset) % 3 {
                case 0:
                    result.local.append(await PlaybackBench.startup(audio: false) { PlayerItem(url: local) })
                case 1:
                    let loading = RemoteLoading(cache: filled, transport: HTTPLoader.shared)
                    result.memory.append(
                        await PlaybackBench.startup(audio: false) { PlayerItem(url: url, loading: loading) })
                default:
                    // A new cache on the directory, made before the clock starts (an app has its cache already):
                    // its memory tier is empty, every chunk comes from disk.
                    let fresh = try media { () throws(MediaError) in try ByteCache(configuration) }
                    let loading = RemoteLoading(cache: fresh, transport: HTTPLoader.shared)
                    result.disk.append(
                        await PlaybackBench.startup(audio: false) { PlayerItem(url: url, loading: loading) })
                    result.bytesFetched += fresh.currentStatistics.bytesFetched
                }
            }
        }
        result.bytesFetched += filled.currentStatistics.bytesFetched - fetchedBefore
        return result
    }
}

import Feed
import Foundation
import PlaybackTesting
import Streaming

/// `bench --feed`'s weak-link part (`--parts weak`): a trace of 35 swipes with 1.5 s dwells over the 2 Mbit/s port,
/// (`--swipes` when given) replayed in one run by playctl on the feed's clips alone (2-5 Mbit/s: above the link's rate), by mpv
/// `--prefetch-playlist=yes` on the same URLs, and by playctl again with renditions: each clip listed with a 500 kbit/s
/// (`feed-3g/`) and a 1.5 Mbit/s (`feed-mid/`) copy beside it (scripts/make-feed-media.sh makes them), chosen by
/// the feed from its own estimate (a fresh one per run, so no run starts from another's). playctl runs with posters
/// on, as `playctl feed` does by default, each entry naming its server thumbnail as its poster (`feed-thumbs/`, 5-30
/// KB each); a last run makes the posters from the videos' own first keyframes instead, as a feed without
/// thumbnails does. The renditions run only on the default feed (`--file` names another). Bytes are counted at the server: what nginx sent on the port during each
/// run, from its access log, as the shaper carried them.
struct WeakLinkBench: Sendable {
    static let link = TestHTTPServer.Link.mbit2
    static let defaultSwipes = 35
    /// ~1.5 s on each item (1.26 to 1.78 s).
    static let dwell = SwipeTrace.Dwell.around(median: 1.5, spread: 0.25)
    /// The renditions beside each clip: scripts/make-feed-media.sh's folders.
    static let lowFolder = FeedMedia.cellularFolder
    static let midFolder = "feed-mid"
    static let lowBitRate = 500_000
    static let midBitRate = 1_500_000
    /// The entries' thumbnails: scripts/make-feed-media.sh's folder.
    static let thumbnailFolder = "feed-thumbs"
    /// The runs' names.
    static let plainRun = "playctl"
    static let renditionsRun = "playctl, renditions"
    static let keyframePostersRun = "playctl, keyframe posters"
    /// The poster size playctl's runs ask for (`playctl feed`'s default).
    static let posterSize = (width: 180, height: 320)

    var seed: UInt64
    var swipes = defaultSwipes
    /// Whether the run with renditions runs (their folders are the default feed's).
    var renditions = true

    /// The trace, over `items` items.
    func trace(items: Int) -> SwipeTrace {
        SwipeTrace(seed: seed &+ 4, swipes: swipes, items: items, dwell: Self.dwell)
    }

    /// The feed's configuration for a run: the defaults, posters on, a fresh estimate.
    static func configuration() -> FeedConfiguration {
        var configuration = FeedConfiguration()
        configuration.posterSize = posterSize
        configuration.bandwidthEstimate = SharedBandwidthEstimate()
        return configuration
    }

    /// The name of `file`'s thumbnail in ``thumbnailFolder`` (`000.mp4`'s is `000.jpg`).
    static func thumbnailName(of file: FeedMedia.File) -> String {
        file.name.split(separator: ".").dropLast().joined(separator: ".") + ".jpg"
    }

    /// `media`'s entries under `base`; with `renditions`, each video listing its 500 kbit/s and 1.5 Mbit/s copies and
    /// itself (its bit rate by its size and duration); with `thumbnails`, each naming its thumbnail as its poster.
    static func entries(_ media: FeedMedia, base: String, renditions: Bool, thumbnails: Bool) -> [FeedEntry] {
        let plain = zip(media.files, media.entries(base: base)).map { file, entry in
            var entry = entry
            if thumbnails { entry.poster = "\(base)/\(thumbnailFolder)/\(thumbnailName(of: file))" }
            return entry
        }
        guard renditions else { return plain }
        return zip(media.files, plain).map { file, entry in
            guard file.kind == .video, let duration = file.duration, duration > 0 else { return entry }
            let full = Int(Double(file.bytes) * 8 / duration)
            return FeedEntry(
                url: entry.url, kind: .video, duration: duration,
                renditions: [
                    ProgressiveRendition(
                        url: "\(base)/\(lowFolder)/\(file.name)", bitrate: lowBitRate, width: 640, height: 360),
                    ProgressiveRendition(
                        url: "\(base)/\(midFolder)/\(file.name)", bitrate: midBitRate, width: 1280, height: 720),
                    ProgressiveRendition(
                        url: entry.url, bitrate: full, width: file.width, height: file.height, byteSize: file.bytes),
                ], poster: entry.poster)
        }
    }

    /// Runs playctl, mpv, playctl with renditions, and playctl with keyframe posters (when the thumbnails are there:
    /// the runs before name them), in that order, saying each on `progress`.
    /// - Throws: `BenchFailure` when a rendition folder is missing or mpv fails.
    func run(
        media: FeedMedia, mpv: String, quiet: LinkQuiet, progress: @escaping @Sendable (String) -> Void
    ) async throws(BenchFailure) -> [SwipeRun] {
        for folder in [Self.lowFolder, Self.midFolder] where renditions {
            let low = try FeedMedia.load(folder)
            guard low.files.map(\.name) == media.files.map(\.name) else {
                throw .failed("\(low.directory) does not hold the feed's files: run \(FeedMedia.makeScript)")
            }
        }
        let trace = trace(items: media.files.count)
        let base = FeedBench.base(Self.link)
        let log = AccessLog.current
        // The default feed's thumbnails, when every entry has its own (a look at the folder: nothing to probe).
        let folder = (media.directory as NSString).deletingLastPathComponent + "/" + Self.thumbnailFolder
        let thumbnails =
            media.folder == FeedMedia.defaultFolder
            && media.files.allSatisfy {
                FileManager.default.fileExists(atPath: folder + "/" + Self.thumbnailName(of: $0))
            }
        var runs: [SwipeRun] = []
        var plays = [(Self.plainRun, false, thumbnails)]
        if renditions { plays.append((Self.renditionsRun, true, thumbnails)) }
        if thumbnails { plays.append((Self.keyframePostersRun, false, false)) }
        for (number, (name, renditions, thumbnails)) in plays.enumerated() {
            progress("weak-link trace over 2 Mbit/s, 1.5 s dwells: \(name), \(swipes) swipes")
            quiet.wait()
            let mark = log?.mark()
            var run = await FeedReplay.run(
                name, trace: trace,
                entries: Self.entries(media, base: base, renditions: renditions, thumbnails: thumbnails),
                configuration: Self.configuration())
            run.bytesOnWire = await Self.bytesSent(log, since: mark)
            runs.append(run)
            guard number == 0 else { continue }
            progress("weak-link trace over 2 Mbit/s, 1.5 s dwells: \(MPVReplay.name(prefetch: true))")
            quiet.wait()
            let mpvMark = log?.mark()
            let urls = media.entries(base: base).map(\.url)
            var mpvRun = try await FeedBench.onThread { () throws(BenchFailure) in
                try MPVReplay.run(mpv: mpv, urls: urls, prefetch: true, trace: trace)
            }
            mpvRun.bytesOnWire = await Self.bytesSent(log, since: mpvMark)
            runs.append(mpvRun)
        }
        return runs
    }

    /// What nginx sent on the port since `mark` (nil without a log), once the responses cut off at the run's end
    /// are logged (a second later).
    static func bytesSent(_ log: AccessLog?, since mark: UInt64?) async -> Int64? {
        guard let log, let mark else { return nil }
        try? await Task.sleep(for: .seconds(1))
        return log.responses(since: mark, port: link.rawValue).reduce(0) { $0 + $1.bytesSent }
    }
}

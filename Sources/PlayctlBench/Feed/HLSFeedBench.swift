import Feed
import Foundation
import PlaybackTesting
import Streaming

/// `bench --feed`'s HLS part (`--parts hls`): a feed of HLS entries, trace 1's pace (a swipe every ~2 s; 35 swipes,
/// or `--swipes`), replayed by playctl over the 8 Mbit/s port and over the 1.6 Mbit/s one, then by playctl on the same
/// feed as single 1080p progressive files over 1.6 Mbit/s, and by mpv `--prefetch-playlist=yes` on the HLS feed over
/// 8 Mbit/s.
///
/// The entries are scripts/make-ladder-media.sh's fMP4 ladder (4 renditions 360p-1080p, 12 s in 2 s segments, video
/// and audio muxed) under 40 distinct URLs: `feed-hls/000` to `039` of the served media are symbolic links to
/// `ladder/hls-fmp4`, so every entry's playlists and segments are resources of their own, fetched over the link
/// (no cache holds another entry's). The progressive feed is `feed-hls-1080p/000.mp4`..., links to the ladder's
/// 1080p file. Each run starts from no bandwidth estimate (``SharedBandwidthEstimate/shared`` reset, which the
/// feed's default configuration uses), so none starts from another's. Bytes and the renditions fetched are read
/// from nginx's access log: what it sent on the port during the run, and each media segment by its rendition.
struct HLSFeedBench: Sendable {
    static let defaultSwipes = 35
    static let entryCount = 40
    static let folder = "feed-hls"
    static let progressiveFolder = "feed-hls-1080p"
    /// The ladder the entries link to, under the served media, and its renditions' folders (`v0`..`v3`), lowest
    /// first.
    static let ladder = "ladder/hls-fmp4"
    static let progressive = "ladder/progressive/1080p.mp4"
    static let renditionNames = ["360p", "540p", "720p", "1080p"]
    static let duration = 12.0

    static let hls8 = "playctl, HLS, 8 Mbit/s"
    static let hls16 = "playctl, HLS, 1.6 Mbit/s"
    static let progressive16 = "playctl, 1080p files, 1.6 Mbit/s"
    static let mpv8 = "mpv --prefetch-playlist=yes, HLS, 8 Mbit/s"

    var seed: UInt64
    var swipes = defaultSwipes

    /// The trace: trace 1's dwells, its own seed.
    var trace: SwipeTrace {
        SwipeTrace(seed: seed &+ 5, swipes: swipes, items: Self.entryCount, dwell: FeedBench.swipeDwell)
    }

    /// The HLS entries under `base`, and the progressive ones.
    static func entries(base: String, hls: Bool) -> [FeedEntry] {
        (0..<entryCount).map { number in
            let name = String(format: "%03d", number)
            return hls
                ? FeedEntry(url: "\(base)/\(folder)/\(name)/master.m3u8", kind: .video, duration: duration)
                : FeedEntry(url: "\(base)/\(progressiveFolder)/\(name).mp4", kind: .video, duration: duration)
        }
    }

    /// Makes the two folders of links under `root` (kept when present).
    /// - Throws: `BenchFailure` when the ladder is missing or a link cannot be made.
    static func makeFolders(root: String) throws(BenchFailure) {
        let files = FileManager.default
        for needed in [ladder + "/master.m3u8", progressive] where !files.fileExists(atPath: root + "/" + needed) {
            throw .failed("no \(root)/\(needed): run scripts/make-ladder-media.sh (scripts/netns.sh does)")
        }
        for (folder, target, suffix) in [
            (folder, "../" + ladder, ""), (progressiveFolder, "../" + progressive, ".mp4"),
        ] {
            let directory = root + "/" + folder
            do {
                try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
                for number in 0..<entryCount {
                    let path = directory + "/" + String(format: "%03d", number) + suffix
                    guard (try? files.destinationOfSymbolicLink(atPath: path)) == nil else { continue }
                    try files.createSymbolicLink(atPath: path, withDestinationPath: target)
                }
            } catch {
                throw .failed("cannot make the links of \(directory): \(error.localizedDescription)")
            }
        }
    }

    /// Runs the four, saying each on `progress`.
    /// - Throws: `BenchFailure` when the ladder is missing or mpv fails.
    func run(
        mpv: String?, quiet: LinkQuiet, progress: @escaping @Sendable (String) -> Void
    ) async throws(BenchFailure)
        -> [SwipeRun]
    {
        let root = TestHTTPServer.root ?? Repository.path(".build/http-media")
        try Self.makeFolders(root: root)
        let log = AccessLog.current
        var runs: [SwipeRun] = []
        let plays: [(String, TestHTTPServer.Link, Bool)] = [
            (Self.hls8, .mbit8, true), (Self.hls16, .cellular3G, true), (Self.progressive16, .cellular3G, false),
        ]
        for (name, link, hls) in plays {
            progress("HLS feed: \(name), \(swipes) swipes every ~2 s")
            quiet.wait()
            SharedBandwidthEstimate.shared.reset()
            let mark = log?.mark()
            var run = await FeedReplay.run(
                name, trace: trace, entries: Self.entries(base: FeedBench.base(link), hls: hls),
                configuration: FeedConfiguration())
            await Self.count(&run, log: log, since: mark, port: link.rawValue, hls: hls)
            runs.append(run)
        }
        if let mpv {
            progress("HLS feed: \(Self.mpv8), \(swipes) swipes every ~2 s")
            quiet.wait()
            let mark = log?.mark()
            let urls = Self.entries(base: FeedBench.base(.mbit8), hls: true).map(\.url)
            var run = try await FeedBench.onThread { [trace] () throws(BenchFailure) in
                try MPVReplay.run(mpv: mpv, urls: urls, prefetch: true, trace: trace)
            }
            run.name = Self.mpv8
            await Self.count(&run, log: log, since: mark, port: TestHTTPServer.Link.mbit8.rawValue, hls: true)
            runs.append(run)
        }
        return runs
    }

    /// Sets `run`'s bytes on the wire and its media segments by rendition from the log (a second after the run, once
    /// the responses cut off at its end are logged).
    static func count(_ run: inout SwipeRun, log: AccessLog?, since mark: UInt64?, port: Int, hls: Bool) async {
        guard let log, let mark else { return }
        try? await Task.sleep(for: .seconds(1))
        let responses = log.responses(since: mark, port: port)
        run.bytesOnWire = responses.reduce(0) { $0 + $1.bytesSent }
        var segments: [String: Int] = [:]
        for response in responses {
            guard let rendition = Self.rendition(of: response.path, hls: hls) else { continue }
            segments[rendition, default: 0] += 1
        }
        run.segmentsByRendition = segments
    }

    /// The rendition a media segment's path names (`feed-hls/007/v2/seg003.m4s`: 720p); a progressive file of the
    /// feed is 1080p; nil for anything else (playlists, init sections).
    static func rendition(of path: String, hls: Bool) -> String? {
        guard hls else { return path.hasPrefix(progressiveFolder + "/") ? renditionNames[3] : nil }
        let parts = path.split(separator: "/")
        guard parts.count == 4, parts[0] == folder, parts[3].hasPrefix("seg"), parts[2].hasPrefix("v"),
            let level = Int(parts[2].dropFirst()), renditionNames.indices.contains(level)
        else { return nil }
        return renditionNames[level]
    }
}

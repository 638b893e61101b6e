import Foundation
import MediaIO
import PlaybackTesting
import PlayctlOutput

/// `playctl-bench run --thumbnails`: a storyboard of a long video against ffmpeg, in one run.
///
/// 1. Time: `playctl thumbnails F --every 10 --size 160x90 --sprite S --vtt T` against
///    `ffmpeg -skip_frame nokey -i F -vf fps=1/10,scale=160:90 -f null -` (ffmpeg decodes every keyframe and keeps
///    one picture per 10 s; it writes nothing), both as processes timed from start to exit, alternating; medians and
///    their ratio (target: at most 0.5).
/// 2. Bytes, when scripts/netns.sh's server runs: the same storyboard of the served copy over the 8 Mbit/s link, a
///    new process with an empty cache on an idle link; the bytes nginx sent for it (its access log) against the
///    header plus the sizes of the keyframes the tiles use (target: at most 1.3).
public struct ThumbnailBench: Sendable {
    public static let every = 10.0
    public static let size = (width: 160, height: 90)

    public let file: String?
    public let runs: Int
    public let playctl: String

    public init(file: String?, runs: Int, playctl: String = BenchTools.playctl()) {
        self.file = file
        self.runs = runs
        self.playctl = playctl
    }

    /// The 10-minute 1080p clip: `--file`, the served folder's long.mp4, or .build/http-media's.
    func clipPath() -> String? {
        if let file { return file }
        let candidates = [TestHTTPServer.root.map { $0 + "/long.mp4" }, ".build/http-media/long.mp4"]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0) }
    }

    public func run(progress: @Sendable (String) -> Void) async throws(BenchFailure) -> ThumbnailReport {
        guard let ffmpeg = ProcessRunner.findExecutable("ffmpeg") else { throw .failed("ffmpeg is not in PATH") }
        guard let clip = clipPath() else {
            throw .failed("no long.mp4: run scripts/make-http-media.sh (scripts/netns.sh does), or give --file")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playctl-thumbnail-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sprite = directory.appendingPathComponent("sprite.jpg").path
        let vtt = directory.appendingPathComponent("thumbs.vtt").path
        let size = "\(Self.size.width)x\(Self.size.height)"
        let storyboard = { (source: String) in
            [
                "thumbnails", source, "--every", DecimalText.format(Self.every), "--size", size, "--sprite", sprite,
                "--vtt", vtt,
            ]
        }
        progress("storyboard of \(clip): \(runs) runs of each")
        let cases = [
            BenchCase(tool: "playctl", executable: playctl, arguments: storyboard(clip)),
            BenchCase(
                tool: "ffmpeg", executable: ffmpeg,
                arguments: [
                    "-hide_banner", "-nostdin", "-loglevel", "error", "-skip_frame", "nokey", "-i", clip, "-vf",
                    "fps=1/\(DecimalText.format(Self.every)),scale=\(Self.size.width):\(Self.size.height)", "-f",
                    "null", "-",
                ]),
        ]
        let timings = try BenchRunner.measure(cases, runs: runs, progress: progress)
        var report = ThumbnailReport(
            file: clip, runs: runs, playctlSeconds: timings[0].wallSeconds, ffmpegSeconds: timings[1].wallSeconds)
        if TestHTTPServer.isAvailable, TestHTTPServer.accessLog != nil, let root = TestHTTPServer.root,
            clip.hasPrefix(root + "/")
        {
            progress("storyboard over 8 Mbit/s")
            LinkQuiet.find(shaped: TestHTTPServer.isShaped).wait()
            let marker = "thumbnail-bench-\(getpid())-\(UInt64(Date().timeIntervalSince1970 * 1000))"
            let name = String(clip.dropFirst(root.count + 1))
            let url = TestHTTPServer.url("\(name)?\(marker)", over: .mbit8)
            let result = try PosterBench.runChecked(playctl, storyboard(url) + ["--json"])
            let keyOffsets = Set(
                result.outputText.split(separator: "\n").compactMap { line -> Int64? in
                    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                        let offset = object["keyframeOffset"] as? Int
                    else { return nil }
                    return Int64(offset)
                })
            let need: Int64
            do throws(MediaError) {
                let keyframes = try Demuxer(url: clip).indexedKeyframes()
                need =
                    (keyframes.first?.offset ?? 0)
                    + keyframes.filter { keyOffsets.contains($0.offset) }.reduce(Int64(0)) { $0 + Int64($1.size) }
            } catch {
                throw .failed("\(clip): \(error)")
            }
            let responses = await TestHTTPServer.responses(containing: marker, atLeast: keyOffsets.count)
            report.remote = ThumbnailReport.Remote(
                url: url, seconds: result.wallSeconds, bytesSent: responses.reduce(0) { $0 + $1.bytesSent },
                need: need, responses: responses.count)
        }
        return report
    }
}

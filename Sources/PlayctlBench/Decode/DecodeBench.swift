import PlaybackTesting

/// `playctl-bench run`: times playctl against ffmpeg and mpv on one file.
///
/// Two measurements, each command spawned as its own process, alternating, `runs` times:
/// 1. full decode of the first video stream without output: `playctl frames F --count` against
///    `ffmpeg -threads 0 -i F -map 0:v:0 -f null -` (both let FFmpeg pick the decoder thread count);
/// 2. exact seek to the last frame before the second keyframe: `playctl frame F --at T --md5` against
///    `ffmpeg -ss T -i F -map 0:v:0 -frames:v 1 -f null -` and `mpv --no-config --hr-seek=yes --start=T --frames=1
///    --vo=null --ao=null F`, after checking that playctl's frame has the md5 of
///    `ffmpeg -ss T -noautorotate -i F -map 0:v:0 -frames:v 1 -f framemd5 -`.
/// The report holds medians, ratios against the targets (decode ≤ 1.03x ffmpeg, exact seek ≤ 0.65x ffmpeg) and peak
/// RSS. Fails when ffmpeg is missing; mpv is optional. Whether the frames are identical is in the report.
public struct DecodeBench: Sendable {
    /// Decode time allowed, as a multiple of ffmpeg's.
    public static let decodeTarget = 1.03
    /// Exact-seek time allowed, as a multiple of ffmpeg's.
    public static let seekTarget = 0.65

    /// The file to measure, or nil for `bench-media/1080p.mp4` (made when missing; see `BenchMedia`).
    public let file: String?
    /// Timed runs per command.
    public let runs: Int
    /// The playctl executable to measure.
    public let playctl: String

    /// A benchmark of `playctl` (the running executable by default) on `file`, `runs` timed runs per command.
    public init(file: String?, runs: Int, playctl: String = BenchTools.playctl()) {
        self.file = file
        self.runs = runs
        self.playctl = playctl
    }

    /// Runs both measurements; `progress` receives one line per step (the CLI prints them on standard error).
    /// - Throws: `BenchFailure` when the file or a tool is missing, or a command does not exit with status 0.
    public func run(progress: (String) -> Void) throws(BenchFailure) -> BenchReport {
        let loadBefore = LoadAverage.oneMinute()
        let tools = try BenchTools.find(progress: progress)
        let bench = try BenchMedia.prepare(path: file, progress: progress)
        let path = bench.path
        let at = bench.seekTarget.text

        let frameCount = try countFrames(path: path)
        let check = try checkSeekFrame(ffmpeg: tools.ffmpeg, path: path, at: at)

        progress("decode: \(runs) runs each of playctl and ffmpeg")
        let quiet = ["-hide_banner", "-nostdin", "-loglevel", "error"]
        let decode = try BenchRunner.measure(
            [
                BenchCase(tool: "playctl", executable: playctl, arguments: ["frames", path, "--count"]),
                BenchCase(
                    tool: "ffmpeg", executable: tools.ffmpeg,
                    arguments: quiet + ["-threads", "0", "-i", path, "-map", "0:v:0", "-f", "null", "-"]),
            ], runs: runs, progress: progress)

        var seekCases = [
            BenchCase(tool: "playctl", executable: playctl, arguments: ["frame", path, "--at", at, "--md5"]),
            BenchCase(
                tool: "ffmpeg", executable: tools.ffmpeg,
                arguments: quiet + ["-ss", at, "-i", path, "-map", "0:v:0", "-frames:v", "1", "-f", "null", "-"]),
        ]
        if let mpv = tools.mpv {
            seekCases.append(
                BenchCase(
                    tool: "mpv", executable: mpv,
                    arguments: [
                        "--no-config", "--hr-seek=yes", "--start=\(at)", "--frames=1", "--vo=null",
                        "--ao=null", path,
                    ]))
        }
        progress("exact seek to \(at) s: \(runs) runs each of \(seekCases.map(\.tool).joined(separator: ", "))")
        let seek = try BenchRunner.measure(seekCases, runs: runs, progress: progress)

        return BenchReport(
            media: bench, tools: tools, playctl: playctl, runs: runs, frameCount: frameCount, seekCheck: check,
            decode: decode, seek: seek, loadAverage: (loadBefore, LoadAverage.oneMinute()))
    }

    /// The number of frames `frames --count` decodes (shown in the report; the run also warms the page cache).
    private func countFrames(path: String) throws(BenchFailure) -> Int {
        let counting = BenchCase(tool: "playctl", executable: playctl, arguments: ["frames", path, "--count"])
        let text = try BenchRunner.runChecked(counting, capturesOutput: true).outputText
        guard let count = Int(text.split(separator: "\n").first ?? "") else {
            throw .notAFrameCount(commandLine: counting.commandLine, output: text)
        }
        return count
    }

    /// playctl's exact-seek frame and ffmpeg's, compared by md5.
    private func checkSeekFrame(ffmpeg: String, path: String, at: String) throws(BenchFailure) -> SeekCheck {
        let ours = BenchCase(tool: "playctl", executable: playctl, arguments: ["frame", path, "--at", at, "--md5"])
        let reference = BenchCase(
            tool: "ffmpeg", executable: ffmpeg,
            arguments: [
                "-hide_banner", "-nostdin", "-loglevel", "error", "-ss", at, "-noautorotate", "-i", path,
                "-map", "0:v:0", "-frames:v", "1", "-f", "framemd5", "-",
            ])
        let ourLine = try BenchRunner.runChecked(ours, capturesOutput: true).outputText
        let fields = ourLine.split(whereSeparator: { $0 == " " || $0 == "\n" })
        let referenceText = try BenchRunner.runChecked(reference, capturesOutput: true).outputText
        let referenceLine = referenceText.split(separator: "\n").last { !$0.hasPrefix("#") }
        let referenceMD5 = referenceLine?.split(separator: ",").last?.trimmingCharacters(in: " ") ?? ""
        guard fields.count == 2, !referenceMD5.isEmpty else {
            throw .failed("could not read the frame md5s for the seek check ('\(ours.commandLine)')")
        }
        return SeekCheck(playctlTime: String(fields[0]), playctlMD5: String(fields[1]), ffmpegMD5: referenceMD5)
    }
}

extension Substring {
    /// The text without leading and trailing `characters`.
    fileprivate func trimmingCharacters(in characters: String) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}

import Dispatch
import Locking
import PlayctlOutput
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `playctl bench [--file FILE] [--runs N] [--json]`: times playctl against ffmpeg and mpv on one file.
///
/// Two measurements, each command spawned as its own process, alternating, `--runs` times (default 9):
/// 1. full decode of the first video stream without output: `playctl frames F --count` against
///    `ffmpeg -threads 0 -i F -map 0:v:0 -f null -` (both let FFmpeg pick the decoder thread count);
/// 2. exact seek to the last frame before the second keyframe: `playctl frame F --at T --md5` against
///    `ffmpeg -ss T -i F -map 0:v:0 -frames:v 1 -f null -` and `mpv --no-config --hr-seek=yes --start=T --frames=1
///    --vo=null --ao=null F`, after checking that playctl's frame has the md5 of
///    `ffmpeg -ss T -noautorotate -i F -map 0:v:0 -frames:v 1 -f framemd5 -`.
/// Prints medians, ratios against the targets (decode ≤ 1.03x ffmpeg, exact seek ≤ 0.65x ffmpeg) and peak RSS.
/// Progress goes to standard error. Fails (exit 1) when ffmpeg is missing or the frames differ; mpv is optional.
struct BenchCommand {
    /// Decode time allowed, as a multiple of ffmpeg's.
    static let decodeTarget = 1.03
    /// Exact-seek time allowed, as a multiple of ffmpeg's.
    static let seekTarget = 0.65
    /// Runs per command when `--runs` is absent.
    static let defaultRuns = 9

    /// `--file`, or nil for the default file.
    let file: String?
    /// Timed runs per command.
    let runs: Int
    /// Whether to print JSON instead of a table.
    let printsJSON: Bool

    /// Reads and checks the arguments.
    /// - Throws: `.usage` when `--runs` is not a positive integer.
    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        file = arguments.value("file")
        let runs: Int?
        do {
            runs = try arguments.int("runs")
        } catch {
            throw .usage(error)
        }
        if let runs, runs < 1 {
            throw .usage(arguments.invalidValue("runs", value: String(runs), expected: "a positive integer"))
        }
        self.runs = runs ?? Self.defaultRuns
        printsJSON = arguments.flag("json")
        playback = arguments.flag("playback")
    }

    /// `--playback`: measure the player rather than the decoder.
    let playback: Bool

    private func runPlayback(_ output: StandardOutput) throws(CommandFailure) {
        let bench = try BenchMedia.prepare(path: file, progress: Self.progress)
        let root = BenchMedia.repositoryRoot() ?? "."
        let playbackBench = PlaybackBench(file: bench.path, small: root + "/Media/a.mp4", swapTarget: root + "/Media/b.mp4",
                                          runs: runs)
        let rows = Locked<[(String, String)]>([])
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let result = await playbackBench.run(progress: { Self.progress($0) })
            rows.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        for (name, value) in rows.withLock({ $0 }) {
            try output.line(name + ": " + value)
        }
    }

    /// Runs both measurements and prints the report (or, with `--playback`, the player's figures).
    func run(_ output: StandardOutput) throws(CommandFailure) {
        if playback {
            try runPlayback(output)
            return
        }
        let loadBefore = ProcessRunner.loadAverage()
        let tools = try BenchTools.find()
        let bench = try BenchMedia.prepare(path: file, progress: Self.progress)
        let playctl = ProcessRunner.currentExecutable()
        let path = bench.path
        let at = bench.seekTarget.text

        let frameCount = try countFrames(playctl: playctl, path: path)
        let check = try checkSeekFrame(playctl: playctl, ffmpeg: tools.ffmpeg, path: path, at: at)

        Self.progress("decode: \(runs) runs each of playctl and ffmpeg")
        let quiet = ["-hide_banner", "-nostdin", "-loglevel", "error"]
        let decode = try BenchRunner.measure(
            [
                BenchCase(tool: "playctl", executable: playctl, arguments: ["frames", path, "--count"]),
                BenchCase(
                    tool: "ffmpeg", executable: tools.ffmpeg,
                    arguments: quiet + ["-threads", "0", "-i", path, "-map", "0:v:0", "-f", "null", "-"]),
            ], runs: runs, progress: Self.progress)

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
                    arguments: ["--no-config", "--hr-seek=yes", "--start=\(at)", "--frames=1", "--vo=null",
                                "--ao=null", path]))
        }
        Self.progress("exact seek to \(at) s: \(runs) runs each of \(seekCases.map(\.tool).joined(separator: ", "))")
        let seek = try BenchRunner.measure(seekCases, runs: runs, progress: Self.progress)

        let report = BenchReport(
            media: bench, tools: tools, playctl: playctl, runs: runs, frameCount: frameCount, seekCheck: check,
            decode: decode, seek: seek, loadAverage: (loadBefore, ProcessRunner.loadAverage()))
        if printsJSON {
            try output.json(report.json)
        } else {
            for line in report.textLines { try output.line(line) }
        }
        guard check.isIdentical else {
            try output.flush()
            throw CommandFailure(
                "playctl's frame at \(at) s (md5 \(check.playctlMD5)) differs from ffmpeg's (md5 \(check.ffmpegMD5))")
        }
    }

    /// The number of frames `frames --count` decodes (shown in the report; the run also warms the page cache).
    private func countFrames(playctl: String, path: String) throws(CommandFailure) -> Int {
        let counting = BenchCase(tool: "playctl", executable: playctl, arguments: ["frames", path, "--count"])
        let text = try BenchRunner.runChecked(counting, capturesOutput: true).outputText
        guard let count = Int(text.split(separator: "\n").first ?? "") else {
            throw CommandFailure("'\(counting.commandLine)' printed \(UsageError.quote(text)), not a frame count")
        }
        return count
    }

    /// playctl's exact-seek frame and ffmpeg's, compared by md5.
    private func checkSeekFrame(playctl: String, ffmpeg: String, path: String, at: String) throws(CommandFailure)
        -> SeekCheck
    {
        let ours = BenchCase(tool: "playctl", executable: playctl, arguments: ["frame", path, "--at", at, "--md5"])
        let reference = BenchCase(
            tool: "ffmpeg", executable: ffmpeg,
            arguments: ["-hide_banner", "-nostdin", "-loglevel", "error", "-ss", at, "-noautorotate", "-i", path,
                        "-map", "0:v:0", "-frames:v", "1", "-f", "framemd5", "-"])
        let ourLine = try BenchRunner.runChecked(ours, capturesOutput: true).outputText
        let fields = ourLine.split(whereSeparator: { $0 == " " || $0 == "\n" })
        let referenceText = try BenchRunner.runChecked(reference, capturesOutput: true).outputText
        let referenceLine = referenceText.split(separator: "\n").last { !$0.hasPrefix("#") }
        let referenceMD5 = referenceLine?.split(separator: ",").last?.trimmingCharacters(in: " ") ?? ""
        guard fields.count == 2, !referenceMD5.isEmpty else {
            throw CommandFailure("could not read the frame md5s for the seek check ('\(ours.commandLine)')")
        }
        return SeekCheck(playctlTime: String(fields[0]), playctlMD5: String(fields[1]), ffmpegMD5: referenceMD5)
    }

    /// One progress line on standard error.
    static func progress(_ line: String) {
        _ = FileDescriptorIO.writeAll(Array(("bench: " + line + "\n").utf8), to: STDERR_FILENO)
    }
}

/// The exact-seek frame as playctl and ffmpeg decode it.
struct SeekCheck {
    /// The time playctl printed for the frame.
    var playctlTime: String
    /// playctl's md5 of the frame.
    var playctlMD5: String
    /// ffmpeg's framemd5 of the frame.
    var ffmpegMD5: String

    /// Whether the two frames are bit-identical.
    var isIdentical: Bool { playctlMD5 == ffmpegMD5 }
}

extension Substring {
    /// The text without leading and trailing `characters`.
    fileprivate func trimmingCharacters(in characters: String) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}

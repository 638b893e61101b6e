import PlaybackTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The reference tools the benchmark compares against, and the machine it runs on.
public struct BenchTools: Sendable {
    /// The path of ffmpeg (required).
    public var ffmpeg: String
    /// `ffmpeg version 5.1.9-0+deb12u1`.
    public var ffmpegVersion: String
    /// The path of mpv, when installed.
    public var mpv: String?
    /// `mpv 0.35.1`, when installed.
    public var mpvVersion: String?
    /// Online CPUs: what FFmpeg's automatic thread count is based on.
    public var cpuCount: Int

    /// The `playctl` the benchmarks spawn and measure: the one next to the running executable (`playctl-bench`, which
    /// SwiftPM and scripts/bench.sh build into the same folder).
    public static func playctl() -> String {
        let running = ProcessRunner.currentExecutable()
        guard let slash = running.lastIndex(of: "/") else { return "playctl" }
        return running[...slash] + "playctl"
    }

    /// Finds ffmpeg and mpv in `PATH`; says on `progress` when mpv is missing.
    /// - Throws: `BenchFailure` saying so when ffmpeg is not installed.
    static func find(progress: (String) -> Void) throws(BenchFailure) -> BenchTools {
        guard let ffmpeg = ProcessRunner.findExecutable("ffmpeg") else {
            throw .failed(
                "ffmpeg is not installed (not found in PATH): the benchmark measures playctl against it "
                    + "(Debian: apt-get install ffmpeg)")
        }
        let mpv = ProcessRunner.findExecutable("mpv")
        if mpv == nil {
            progress("mpv is not installed (not found in PATH): the mpv seek comparison is skipped")
        }
        return BenchTools(
            ffmpeg: ffmpeg, ffmpegVersion: version(of: ffmpeg, option: "-version", words: 3),
            mpv: mpv, mpvVersion: mpv.map { version(of: $0, option: "--version", words: 2) },
            cpuCount: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// The first `words` words of the first line `tool <option>` prints, or the path and `(unknown version)`.
    static func version(of tool: String, option: String, words: Int) -> String {
        guard let result = try? ProcessRunner.run(tool, [option], standardOutput: .capture), result.succeeded,
            let line = result.outputText.split(separator: "\n").first
        else {
            return tool + " (unknown version)"
        }
        return line.split(separator: " ").prefix(words).joined(separator: " ")
    }
}

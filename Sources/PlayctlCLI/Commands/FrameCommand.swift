import MediaIO
import CommandLineKit

/// `playctl frame FILE --at SECONDS (--md5 | -o OUT.png) [--keyframe]`: the frame on screen at one time.
///
/// Seeks exactly (the frame with the greatest presentation time not after `--at`, measured from the start of the
/// media as `ffmpeg -ss` measures it), or to the keyframe at or before it with `--keyframe`. `--md5` prints the
/// frame as `frames --md5` does (`<seconds> <md5>`); `-o` writes it as a PNG, turned upright by the track's display
/// rotation as a viewer shows it. Times past the end land on the last frame.
///
/// `--at` is a decimal, and the times playctl prints are rounded to the microsecond: a frame at 44182/90000 s prints
/// as `0.490911`, a little before its real time. So that a printed time selects its own frame, as it does for
/// `ffmpeg -ss` (which rounds to the nearest tick), a frame up to half a microsecond after `--at` counts as at it.
struct FrameCommand {
    /// What to do with the frame.
    enum Output {
        /// Print its time and md5.
        case md5
        /// Write it as a PNG file at this path.
        case png(String)
    }

    /// The file to read.
    let path: String
    /// The time asked for, in seconds from the start of the media; never negative.
    let seconds: Double
    /// Exact or keyframe seek.
    let mode: SeekMode
    /// What to do with the frame.
    let output: Output

    /// Reads and checks the command's arguments.
    /// - Throws: `.usage` when `--at` is not a number or is negative.
    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        path = arguments.positional("FILE") ?? ""
        let at: Double
        do {
            at = try arguments.requiredDouble("at")
        } catch {
            throw .usage(error)
        }
        guard at >= 0 else {
            throw .usage(
                arguments.invalidValue(
                    "at", value: arguments.value("at") ?? "", expected: "a time in seconds, 0 or more"))
        }
        seconds = at
        mode = arguments.flag("keyframe") ? .keyframe : .exact
        output = arguments.value("output").map(Output.png) ?? .md5
    }

    /// The latest time `seconds` stands for: the microsecond it names plus half a microsecond.
    static func seekTarget(seconds: Double) -> MediaTime {
        let microseconds = Int64((min(seconds, 1e12) * 1_000_000).rounded())
        return MediaTime(value: microseconds * 2 + 1, timescale: 2_000_000)
    }

    /// Seeks, decodes and prints or writes the frame.
    func run(_ standardOutput: StandardOutput) throws(CommandFailure) {
        let reader = try media { () throws(MediaError) in try VideoFrameReader(url: path) }
        reader.demuxer.discardAllStreams(except: reader.track.index)
        let time = Self.seekTarget(seconds: seconds)
        let landing = try media { () throws(MediaError) in try reader.frame(at: time, mode: mode) }
        guard let frame = landing.frame else {
            throw CommandFailure("\(path): the video stream has no frames")
        }
        switch output {
        case .md5:
            try standardOutput.line(FrameLine.text(frame))
        case .png(let destination):
            let bytes = try media { () throws(MediaError) in try PNGEncoder.encode(frame, url: path) }
            try OutputFile.write(bytes, to: destination)
        }
    }
}

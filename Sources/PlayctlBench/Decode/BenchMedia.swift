import MediaIO
import PlaybackTesting
import PlayctlOutput

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The file the benchmark measures, and the worst-case exact-seek target found in it.
public struct BenchMedia: Sendable {
    /// The default file, relative to the repository root.
    static let defaultRelativePath = "bench-media/1080p.mp4"
    /// The script that makes the default file, relative to the repository root.
    static let makeScriptRelativePath = "scripts/make-bench-media.sh"

    /// The path given to every command.
    public let path: String
    /// The first video track.
    public let track: TrackInfo
    /// The container's duration, when it says.
    public let duration: MediaTime?
    /// Where the exact seek goes.
    public let seekTarget: SeekTarget

    /// The last frame before the second keyframe: an exact seek there decodes the most frames the file can need.
    public struct SeekTarget: Sendable {
        /// The frame's time, rounded up to the microsecond, from the start of the media.
        public var microseconds: Int64
        /// The second keyframe's time, to the nearest microsecond, or nil when the stream has a single keyframe
        /// (the target is then its last frame).
        public var keyframeMicroseconds: Int64?
        /// Frames from the keyframe before the target to the target, both included: what a plain decoder decodes.
        public var framesFromKeyframe: Int

        /// `--at` for every tool: six decimals.
        public var text: String { SecondsText.format(microseconds: microseconds) }
    }

    /// Opens `path`, or the default file (made first with the repository's script when missing), and finds the
    /// seek target. `progress` receives one line per slow step.
    public static func prepare(path: String?, progress: (String) -> Void) throws(BenchFailure) -> BenchMedia {
        let file: String
        if let path {
            file = path
        } else {
            file = try defaultFile(progress: progress)
        }
        let demuxer = try media { () throws(MediaError) in try Demuxer(url: file) }
        guard let track = demuxer.videoTrack else {
            throw .failed("\(file): no video track to benchmark")
        }
        let target = try media { () throws(MediaError) in try findSeekTarget(demuxer, track) }
        return BenchMedia(path: file, track: track, duration: demuxer.duration, seekTarget: target)
    }

    /// `bench-media/1080p.mp4` in the repository found from the working directory or the executable's location;
    /// runs `scripts/make-bench-media.sh` when the file is missing.
    static func defaultFile(progress: (String) -> Void) throws(BenchFailure) -> String {
        guard let root = repositoryRoot() else {
            throw .failed(
                "\(defaultRelativePath) not found and no \(makeScriptRelativePath) to make it: run from the "
                    + "repository root or pass --file")
        }
        let file = (root == "." ? "" : root + "/") + defaultRelativePath
        if access(file, R_OK) == 0 { return file }
        guard let bash = ProcessRunner.findExecutable("bash") else {
            throw .failed("bash is not installed: cannot run \(makeScriptRelativePath) to make \(file)")
        }
        progress("making \(file) with \(makeScriptRelativePath)")
        let result = try process { () throws(ProcessRunnerError) in
            try ProcessRunner.run(bash, [root + "/" + makeScriptRelativePath], standardError: .inherit)
        }
        guard result.succeeded, access(file, R_OK) == 0 else {
            throw .failed("\(makeScriptRelativePath) failed to make \(file)")
        }
        return file
    }

    /// The nearest directory holding `scripts/make-bench-media.sh`: the working directory, or one above the
    /// executable (`.build/release/playctl` lives three levels below the root).
    public static func repositoryRoot() -> String? {
        var candidates = ["."]
        var directory = ProcessRunner.currentExecutable()
        for _ in 0..<6 {
            guard let slash = directory.lastIndex(of: "/") else { break }
            directory = String(directory[..<slash])
            if directory.isEmpty { break }
            candidates.append(directory)
        }
        return candidates.first { access($0 + "/" + makeScriptRelativePath, R_OK) == 0 }
    }

    /// Reads the video packets (no decoding) up to a little past the second keyframe, and picks the greatest
    /// presentation timestamp before it.
    static func findSeekTarget(_ demuxer: Demuxer, _ track: TrackInfo) throws(MediaError) -> SeekTarget {
        let packet = Packet()
        var timestamps: [Int64] = []
        var keyframes: [Int64] = []
        var packetsPastSecondKeyframe = 0
        while packetsPastSecondKeyframe < 64, try demuxer.read(into: packet) {
            guard packet.streamIndex == track.index, let pts = packet.pts else { continue }
            timestamps.append(pts)
            if packet.isKeyframe && keyframes.count < 2 { keyframes.append(pts) }
            if keyframes.count == 2 { packetsPastSecondKeyframe += 1 }
        }
        guard let first = keyframes.first ?? timestamps.min() else {
            throw MediaError(.noDecodableStream, url: demuxer.url, operation: .read, reason: "no video packets")
        }
        let second = keyframes.count == 2 ? keyframes[1] : nil
        let before = timestamps.filter { second == nil || $0 < second! }
        let target = before.max() ?? first
        let clock = TickClock(demuxer: demuxer, track: track)
        return SeekTarget(
            microseconds: clock.microsecondsRoundedUp(target),
            keyframeMicroseconds: second.map(clock.microsecondsNearest),
            framesFromKeyframe: timestamps.filter { $0 >= first && $0 <= target }.count)
    }
}

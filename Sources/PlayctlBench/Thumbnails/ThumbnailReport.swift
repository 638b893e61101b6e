import PlayctlOutput

/// What `playctl-bench run --thumbnails` measured: playctl's storyboard against ffmpeg's keyframe decode, and the
/// bytes a remote storyboard cost against its need.
public struct ThumbnailReport: Sendable {
    public struct Remote: Sendable {
        public var url: String
        public var seconds: Double
        /// What nginx sent for it, headers included.
        public var bytesSent: Int64
        /// The header plus the sizes of the keyframes the tiles show.
        public var need: Int64
        public var responses: Int
        public var ratio: Double { need > 0 ? Double(bytesSent) / Double(need) : .nan }
    }

    public var file: String
    public var runs: Int
    public var playctlSeconds: [Double]
    public var ffmpegSeconds: [Double]
    public var remote: Remote?

    /// The medians' ratio, playctl / ffmpeg (lower is faster; the target is at most 0.5).
    public var ratio: Double { BenchTiming.median(playctlSeconds) / BenchTiming.median(ffmpegSeconds) }

    var textLines: [String] {
        var lines = [
            "storyboard of \(file), every \(DecimalText.format(ThumbnailBench.every)) s at "
                + "\(ThumbnailBench.size.width)x\(ThumbnailBench.size.height), median of \(runs):",
            "  playctl thumbnails  \(BenchText.milliseconds(BenchTiming.median(playctlSeconds)))",
            "  ffmpeg -skip_frame nokey -vf fps,scale  \(BenchText.milliseconds(BenchTiming.median(ffmpegSeconds)))",
            "  playctl / ffmpeg  \(BenchText.verdict(ratio, target: 0.5))",
        ]
        if let remote {
            lines.append(
                "over 8 Mbit/s: \(BenchText.milliseconds(remote.seconds)), \(remote.bytesSent) bytes sent in "
                    + "\(remote.responses) responses for a need of \(remote.need) (header and keyframes): "
                    + BenchText.verdict(remote.ratio, target: 1.3))
        }
        return lines
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("benchmark", "thumbnails"), ("file", .string(file)), ("runs", .int(runs)),
            ("playctlSeconds", .double(BenchTiming.median(playctlSeconds))),
            ("ffmpegSeconds", .double(BenchTiming.median(ffmpegSeconds))), ("ratio", .double(ratio)),
        ]
        if let remote {
            members.append(
                (
                    "remote",
                    .object([
                        ("url", .string(remote.url)), ("seconds", .double(remote.seconds)),
                        ("bytesSent", .int(Int(remote.bytesSent))), ("need", .int(Int(remote.need))),
                        ("responses", .int(remote.responses)), ("ratio", .double(remote.ratio)),
                    ])
                ))
        }
        return .object(members)
    }
}

import PlayctlOutput

extension BenchReport {
    /// The report as one JSON object: `file`, `runs`, `cpus`, `decode` and `seek`, each with one object per tool
    /// (`command`, `medianSeconds`, `minSeconds`, `maxSeconds`, `peakRSSKiB`, `medianCPUSeconds`, `wallSeconds`),
    /// the ratios (wall and CPU) and targets, and the load average before and after.
    public var json: JSONValue {
        let target = media.seekTarget
        var seekMembers: [(String, JSONValue)] = [
            ("at", .double(Double(target.microseconds) / 1e6)),
            ("keyframe", target.keyframeMicroseconds.map { .double(Double($0) / 1e6) } ?? .null),
            ("framesFromKeyframe", .int(target.framesFromKeyframe)),
            ("tools", tools(seek)),
            ("ratioToFFmpeg", .double(seekRatioFFmpeg)),
            ("cpuRatioToFFmpeg", .double(seekCPURatioFFmpeg)),
            ("ratioToMPV", seekRatioMPV.map(JSONValue.double) ?? .null),
            ("target", .double(DecodeBench.seekTarget)),
            ("targetMet", .bool(seekRatioFFmpeg <= DecodeBench.seekTarget)),
        ]
        seekMembers += [
            ("md5", .string(seekCheck.playctlMD5)),
            ("ffmpegMD5", .string(seekCheck.ffmpegMD5)),
            ("bitIdentical", .bool(seekCheck.isIdentical)),
        ]
        return .object([
            ("file", .string(media.path)),
            ("playctl", .string(playctl)),
            ("debugBuild", .bool(measuresDebugBuild)),
            ("runs", .int(runs)),
            ("cpus", .int(tools.cpuCount)),
            ("loadAverageBefore", loadAverage.before.map(JSONValue.double) ?? .null),
            ("loadAverageAfter", loadAverage.after.map(JSONValue.double) ?? .null),
            ("ffmpegVersion", .string(tools.ffmpegVersion)),
            ("mpvVersion", tools.mpvVersion.map(JSONValue.string) ?? .null),
            (
                "decode",
                .object([
                    ("frames", .int(frameCount)),
                    ("tools", tools(decode)),
                    ("ratioToFFmpeg", .double(decodeRatio)),
                    ("cpuRatioToFFmpeg", .double(decodeCPURatio)),
                    ("target", .double(DecodeBench.decodeTarget)),
                    ("targetMet", .bool(decodeRatio <= DecodeBench.decodeTarget)),
                ])
            ),
            ("seek", .object(seekMembers)),
        ])
    }

    private func tools(_ timings: [BenchTiming]) -> JSONValue { BenchText.json(timings) }
}

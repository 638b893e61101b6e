import PlayctlOutput

extension ABRReport {
    /// The report as one JSON object: the machine and tools, `firstFrame` (each tool's timings as `bench --json`
    /// gives them, the reference, the ratio and its target), `fullPlay` (bytes on the wire against the bytes used),
    /// and `abr` (the link's schedule and one object per player: stalls, switches, the variant of each segment, the
    /// bit rate played against the link's mean).
    public var json: JSONValue {
        .object([
            ("shaped", .bool(shaped)),
            ("playctl", .string(playctl)),
            ("debugBuild", .bool(playctl.contains("/debug/"))),
            ("runs", .int(runs)),
            ("cpus", .int(tools.cpuCount)),
            ("busyWaits", .int(busyWaits)),
            ("loadAverageBefore", loadAverage.before.map(JSONValue.double) ?? .null),
            ("loadAverageAfter", loadAverage.after.map(JSONValue.double) ?? .null),
            ("ffmpegVersion", .string(tools.ffmpegVersion)),
            ("mpvVersion", tools.mpvVersion.map(JSONValue.string) ?? .null),
            (
                "firstFrame",
                .object([
                    ("url", .string(firstFrameURL)),
                    ("port", .int(LinkSchedule.port)),
                    ("bitsPerSecond", .double(LinkSchedule.baseRate)),
                    ("tools", BenchText.json(firstFrame)),
                    ("reference", reference.map { .string($0.benchCase.tool) } ?? .null),
                    ("ratio", .double(firstFrameRatio)),
                    ("target", .double(ABRBench.firstFrameTarget)),
                    ("targetMet", .bool(firstFrameRatio <= ABRBench.firstFrameTarget)),
                ])
            ),
            (
                "fullPlay",
                .object([
                    ("wireBytes", .int(Int(fullPlay.wireBytes))),
                    ("usedBytes", .int(Int(fullPlay.usedBytes))),
                    ("requests", .int(fullPlay.requests)),
                    ("distinctPaths", .int(fullPlay.distinctPaths)),
                    ("segmentVariants", Self.variants(fullPlay.variants)),
                    ("switches", .int(fullPlay.switches)),
                    ("seconds", .double(fullPlay.seconds)),
                    ("ratio", .double(fullPlay.ratio)),
                    ("target", .double(ABRBench.bytesTarget)),
                    ("targetMet", .bool(fullPlay.ratio <= ABRBench.bytesTarget)),
                ])
            ),
            (
                "abr",
                .object([
                    ("url", .string(abrURL)),
                    ("seconds", .double(abrSeconds)),
                    (
                        "schedule",
                        .array(
                            schedule.steps.map {
                                .object([
                                    ("seconds", .double($0.seconds)), ("bitsPerSecond", .double($0.bitsPerSecond)),
                                ])
                            })
                    ),
                    ("plays", .array(plays.map(Self.json))),
                    ("maximumStalls", .int(ABRBench.maximumStalls)),
                    ("maximumSwitches", .int(ABRBench.maximumSwitches)),
                    ("playedFractionTarget", .double(ABRBench.playedFractionTarget)),
                    ("targetsMet", abrTargetsMet.map(JSONValue.bool) ?? .null),
                ])
            ),
        ])
    }

    private static func variants(_ variants: [Int?]) -> JSONValue {
        .array(variants.map { $0.map(JSONValue.int) ?? .null })
    }

    private static func json(_ play: ABRPlay) -> JSONValue {
        .object([
            ("player", .string(play.player)),
            ("command", .array(play.command.map(JSONValue.string))),
            ("wallSeconds", .double(play.wallSeconds)),
            ("stalls", play.stalls.map(JSONValue.int) ?? .null),
            ("stallSource", .string(play.stallSource)),
            ("switches", .int(play.switches)),
            ("segmentVariants", variants(play.segmentVariants)),
            ("playedBitsPerSecond", .double(play.playedBitsPerSecond)),
            ("linkMeanBitsPerSecond", .double(play.linkMeanBitsPerSecond)),
            ("playedFraction", .double(play.playedFraction)),
            ("requests", .int(play.requests)),
            ("wireBytes", .int(Int(play.wireBytes))),
            ("decisions", .array(play.decisions.map(JSONValue.string))),
        ])
    }
}

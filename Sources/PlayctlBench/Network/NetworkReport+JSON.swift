import PlayctlOutput

extension NetworkReport {
    /// The report as one JSON object: the file, the machine and tools, then `firstFrame` (one object per link: its
    /// URL and rate, each tool's timings as `bench --json` gives them, the reference tool, the ratio and, at
    /// 8 Mbit/s, the target), `cachedStartup` (the startups in seconds, their medians and ratios, the bytes they
    /// fetched) and `fullPlay` (bytes fetched against the file's size).
    public var json: JSONValue {
        let cached = cachedStartup
        return .object([
            ("file", .string(file)),
            ("localPath", .string(localPath)),
            ("fileBytes", .int(Int(fileBytes))),
            ("duration", duration.map { .double($0.seconds) } ?? .null),
            ("shaped", .bool(shaped)),
            ("waitsForIdleLink", .bool(waitsForIdleLink)),
            ("busyWaits", .int(busyWaits)),
            ("playctl", .string(playctl)),
            ("debugBuild", .bool(measuresDebugBuild)),
            ("runs", .int(runs)),
            ("cpus", .int(tools.cpuCount)),
            ("loadAverageBefore", loadAverage.before.map(JSONValue.double) ?? .null),
            ("loadAverageAfter", loadAverage.after.map(JSONValue.double) ?? .null),
            ("ffmpegVersion", .string(tools.ffmpegVersion)),
            ("mpvVersion", tools.mpvVersion.map(JSONValue.string) ?? .null),
            ("firstFrame", .array(firstFrame.map(Self.json))),
            (
                "cachedStartup",
                .object([
                    ("fillBytesFetched", .int(Int(cached.fill.bytesFetched))),
                    ("localSeconds", .array(cached.local.map(JSONValue.double))),
                    ("memorySeconds", .array(cached.memory.map(JSONValue.double))),
                    ("diskSeconds", .array(cached.disk.map(JSONValue.double))),
                    ("localMedianSeconds", .double(BenchTiming.median(cached.local))),
                    ("memoryMedianSeconds", .double(BenchTiming.median(cached.memory))),
                    ("diskMedianSeconds", .double(BenchTiming.median(cached.disk))),
                    ("memoryRatio", .double(cached.memoryRatio)),
                    ("diskRatio", .double(cached.diskRatio)),
                    ("target", .double(NetworkBench.cachedStartupTarget)),
                    (
                        "targetMet",
                        .bool(max(cached.memoryRatio, cached.diskRatio) <= NetworkBench.cachedStartupTarget)
                    ),
                    ("bytesFetched", .int(Int(cached.bytesFetched))),
                ])
            ),
            (
                "fullPlay",
                .object([
                    ("bytesFetched", .int(Int(fullPlay.bytesFetched))),
                    ("bytesReceived", .int(Int(fullPlay.bytesReceived))),
                    ("fileBytes", .int(Int(fileBytes))),
                    ("transfers", .int(fullPlay.transfers)),
                    ("seconds", .double(fullPlay.seconds)),
                    ("ratio", .double(bytesRatio)),
                    ("target", .double(NetworkBench.bytesTarget)),
                    ("targetMet", .bool(bytesRatio <= NetworkBench.bytesTarget)),
                ])
            ),
        ])
    }

    private static func json(_ entry: LinkTimings) -> JSONValue {
        .object([
            ("url", .string(entry.url)),
            ("port", .int(entry.link.rawValue)),
            ("bitsPerSecond", entry.link.bitsPerSecond.map(JSONValue.double) ?? .null),
            ("tools", BenchText.json(entry.timings)),
            ("reference", entry.reference.map { .string($0.benchCase.tool) } ?? .null),
            ("ratio", .double(entry.ratio)),
            ("target", entry.hasTarget ? .double(NetworkBench.firstFrameTarget) : .null),
            ("targetMet", entry.hasTarget ? .bool(entry.ratio <= NetworkBench.firstFrameTarget) : .null),
        ])
    }
}

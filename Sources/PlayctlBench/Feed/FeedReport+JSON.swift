import Feed
import PlayctlCLI
import PlayctlOutput

extension FeedReport {
    /// The report as one JSON object: the feed, the machine and the traces' parameters, then `swipe` (trace 1 at
    /// 8 Mbit/s: one object per player), `competition` (trace 2), `waste` (trace 3), `cellular` (trace 1 at
    /// 1.6 Mbit/s), `weak`, `hls` (the HLS feed), `soak`, and `targets` (each figure with its bound and whether it is met).
    public var json: JSONValue {
        let videos = media.files.filter { $0.kind == .video }.count
        var fields: [(String, JSONValue)] = [
            ("folder", .string(media.folder)),
            ("cellularFolder", cellularMedia.map { .string($0.folder) } ?? .null),
            ("entries", .int(media.files.count)),
            ("videos", .int(videos)),
            ("images", .int(media.files.count - videos)),
            ("distinctFiles", .int(media.distinctFiles)),
        ]
        fields += [
            ("shaped", .bool(shaped)),
            ("busyWaits", .int(busyWaits)),
            ("playctl", .string(playctl)),
            ("debugBuild", .bool(measuresDebugBuild)),
            ("mpv", tools.mpvVersion.map(JSONValue.string) ?? .null),
            ("cpus", .int(tools.cpuCount)),
        ]
        fields += [
            ("seed", .int(Int(truncatingIfNeeded: bench.seed))),
            ("swipes", .int(bench.swipes)),
            ("wasteSwipes", .int(bench.wasteSwipes)),
            ("soakSwipes", .int(bench.soakSwipes)),
            ("loadAverage", Self.json(loadAverage)),
        ]
        let runs: [(String, JSONValue)] = [
            ("swipe", .array(swipe.map(Self.json))),
            ("competition", .array(competition.map(Self.json))),
            ("waste", waste.map(Self.json) ?? .null),
            ("cellular", .array(cellular.map(Self.json))),
            ("weak", .array(weak.map(Self.json))),
            ("hls", .array(hls.map(Self.json))),
        ]
        fields += runs
        fields.append(("soak", soak.map(Self.json) ?? .null))
        fields.append(("targets", .array(targets.map(\.json))))
        return .object(fields)
    }

    static func json(_ loadAverage: (before: Double?, after: Double?)) -> JSONValue {
        .object([
            ("before", loadAverage.before.map(JSONValue.double) ?? .null),
            ("after", loadAverage.after.map(JSONValue.double) ?? .null),
        ])
    }

    /// `{"count", "p50", "p95", "max"}` in seconds.
    static func json(_ latencies: FeedSummary.Latencies) -> JSONValue {
        .object([
            ("count", .int(latencies.count)), ("p50", .double(latencies.p50)), ("p95", .double(latencies.p95)),
            ("max", .double(latencies.max)),
        ])
    }

    /// One run: its name, wall time, latencies (all, prepared, cold), swipes without a frame, every swipe, and
    /// playctl's feed summary.
    static func json(_ run: SwipeRun) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("name", .string(run.name)),
            ("seconds", .double(run.seconds)),
            ("failures", .int(run.failures)),
            ("linkClaimed", run.linkClaimed.map(JSONValue.double) ?? .null),
            ("bytesOnWire", run.bytesOnWire.map { .int(Int($0)) } ?? .null),
            (
                "segmentsByRendition",
                run.segmentsByRendition.map { counts in
                    .object(counts.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int($0.value)) })
                } ?? .null
            ),
        ]
        for selection in SwipeRun.Selection.allCases {
            fields.append((selection.rawValue, json(run.latencies(selection))))
        }
        fields.append(("noFrame", .int(run.missed(.all))))
        fields.append(
            (
                "swipes",
                .array(
                    run.swipes.map { swipe in
                        .object([
                            ("index", .int(swipe.index)), ("latency", swipe.latency.map(JSONValue.double) ?? .null),
                            ("prepared", .bool(swipe.prepared)), ("hadFrame", .bool(swipe.hadFrame)),
                            ("dwell", .double(swipe.dwell)),
                            ("otherBytes", swipe.otherBytes.map { .int(Int($0)) } ?? .null),
                            ("picture", swipe.picture.map { .string($0.rawValue) } ?? .null),
                        ])
                    })
            ))
        fields.append(("summary", run.summary.map(json) ?? .null))
        return .object(fields)
    }

    /// A feed summary's figures.
    static func json(_ summary: FeedSummary) -> JSONValue {
        .object([
            ("activations", .int(summary.activations)),
            ("firstFrame", json(summary.firstFrame)),
            ("preparedFirstFrame", json(summary.preparedFirstFrame)),
            ("coldFirstFrame", json(summary.coldFirstFrame)),
            ("start", json(summary.start)),
            ("preparedStart", json(summary.preparedStart)),
            ("stalls", .int(summary.stalls)),
            ("stallSeconds", .double(summary.stallSeconds)),
            ("watchedSeconds", .double(summary.watchedSeconds)),
            ("rebufferRatio", .double(summary.rebufferRatio)),
            ("bytesFetched", .int(Int(summary.bytesFetched))), ("bytesReceived", .int(Int(summary.bytesReceived))),
            ("bytesPlayed", .int(Int(summary.bytesPlayed))),
            ("bytesFetchedUnwatched", .int(Int(summary.bytesFetchedUnwatched))),
            ("wasteRatio", .double(summary.wasteRatio)),
            ("loaderImpressions", .int(summary.loaderImpressions)),
            ("blankSwipes", .int(summary.blankSwipes)), ("posterSwipes", .int(summary.posterSwipes)),
            ("loaderImpressionsPer1000", .double(summary.loaderImpressionsPer1000)),
            ("failures", .int(summary.failures)),
            ("prefetchesStarted", .int(summary.prefetchesStarted)),
            ("prefetchesFinished", .int(summary.prefetchesFinished)),
            ("prefetchesCancelled", .int(summary.prefetchesCancelled)),
            ("poolHits", .int(summary.poolHits)),
            ("poolWaits", .int(summary.poolWaits)),
            ("trims", .int(summary.trims)),
            ("cappedItems", .int(summary.cappedItems)),
            ("cappedItemsTapped", .int(summary.cappedItemsTapped)),
            ("peakMemory", .int(summary.peakMemory)),
        ])
    }

    /// The soak's resources (before the feed and after it ended), resident memory (the means compared, the growth,
    /// the peak, after each swipe) and the feed's summary.
    static func json(_ soak: FeedSoakReport) -> JSONValue {
        .object([
            ("swipes", .int(soak.swipes)),
            ("seconds", .double(soak.seconds)),
            ("failures", .int(soak.failures)),
            ("start", soak.start.json),
            ("end", soak.end.json),
            (
                "resident",
                .object([
                    ("early", .int(soak.earlyResident)), ("late", .int(soak.lateResident)),
                    ("growth", .int(soak.growth)), ("peak", .int(soak.peakResidentBytes)),
                    ("afterEachSwipe", .array(soak.resident.map(JSONValue.int))),
                ])
            ),
            ("summary", soak.summary.map(json) ?? .null),
        ])
    }
}

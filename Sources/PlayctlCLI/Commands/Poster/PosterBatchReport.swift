import PlayctlOutput
import Posters

/// How `poster --batch` prints posters and the pipeline's figures.
enum PosterBatchReport {
    static func ms(_ seconds: Double) -> String { DecimalText.format((seconds * 1000 * 10).rounded() / 10) }

    static func text(entry: PosterBatch.Entry, poster: Poster) -> String {
        let t = poster.timings
        let stages =
            poster.fromCache
            ? "cached, \(ms(t.total)) ms"
            : "queue \(ms(t.queueWait)) fetch \(ms(t.fetch)) demux \(ms(t.demux)) decode \(ms(t.decode)) "
                + "scale \(ms(t.scale)) total \(ms(t.total)) ms"
        return "\(entry.source)\(entry.time.map { " @\($0)" } ?? ""): \(poster.image.width)x\(poster.image.height) "
            + "(from \(poster.sourceWidth)x\(poster.sourceHeight)): \(stages)"
    }

    static func json(entry: PosterBatch.Entry, poster: Poster) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("event", "metric.poster"), ("source", .string(entry.source)),
            ("time", entry.time.map(JSONValue.double) ?? .null),
            ("width", .int(poster.image.width)), ("height", .int(poster.image.height)),
            ("sourceWidth", .int(poster.sourceWidth)), ("sourceHeight", .int(poster.sourceHeight)),
            ("decodedWidth", .int(poster.decodedWidth)), ("decodedHeight", .int(poster.decodedHeight)),
            ("fromCache", .bool(poster.fromCache)),
        ]
        for (name, seconds) in poster.timings.stages { members.append((name + "Ms", .double(seconds * 1000))) }
        return .object(members)
    }

    static func text(_ statistics: PosterStatistics) -> [String] {
        var lines = [
            "requests \(statistics.requests): cache hits \(statistics.cacheHits), joined in flight "
                + "\(statistics.joined), fetches \(statistics.fetches), decodes \(statistics.decodes), failures "
                + "\(statistics.failures), cancelled \(statistics.cancelledRequests)",
            "cache: \(statistics.cache.count) posters, \(statistics.cache.cost) bytes",
        ]
        for name in PosterTimings().stages.map(\.name) {
            guard let stage = statistics.stages[name] else { continue }
            lines.append("\(name): p50 \(ms(stage.p50)) ms, p95 \(ms(stage.p95)) ms (\(stage.count))")
        }
        return lines
    }

    static func json(_ statistics: PosterStatistics) -> JSONValue {
        var stages: [(String, JSONValue)] = []
        for name in PosterTimings().stages.map(\.name) {
            guard let stage = statistics.stages[name] else { continue }
            stages.append(
                (
                    name,
                    .object([
                        ("count", .int(stage.count)), ("p50Ms", .double(stage.p50 * 1000)),
                        ("p95Ms", .double(stage.p95 * 1000)),
                    ])
                ))
        }
        return .object([
            ("event", "metric.posterSummary"), ("requests", .int(statistics.requests)),
            ("cacheHits", .int(statistics.cacheHits)), ("joined", .int(statistics.joined)),
            ("fetches", .int(statistics.fetches)), ("decodes", .int(statistics.decodes)),
            ("failures", .int(statistics.failures)), ("cancelled", .int(statistics.cancelledRequests)),
            ("cacheCount", .int(statistics.cache.count)), ("cacheCost", .int(statistics.cache.cost)),
            ("stages", .object(stages)),
        ])
    }
}

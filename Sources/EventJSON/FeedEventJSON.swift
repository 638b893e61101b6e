import Feed
import PlayctlOutput

/// The JSON Lines vocabulary of `playctl feed --json`: one object per `FeedEvent`, `{"event": name, "time": feed
/// seconds, "index": item, ...}` with the fields of its kind, then one `feed.summary` object.
public enum FeedEventJSON {
    /// `event` as one object; `feed.visible` also names the item's `url` and `kind` from `entries`.
    public static func object(_ event: FeedEvent, entries: FeedEntries) -> JSONValue {
        let context: [(String, JSONValue)] = [
            ("event", .string(event.name)), ("time", .double(event.time)), ("index", .int(event.index)),
        ]
        return .object(context + fields(event.kind, entries: entries))
    }

    /// The fields of the event's kind.
    public static func fields(_ kind: FeedEvent.Kind, entries: FeedEntries) -> [(String, JSONValue)] {
        switch kind {
        case .visible(let index):
            guard entries.indices.contains(index) else { return [] }
            return [("url", .string(entries[index].url)), ("kind", .string(entries[index].kind.rawValue))]
        case .active(_, let prepared, let hasFrame):
            return [("prepared", .bool(prepared)), ("hasFrame", .bool(hasFrame))]
        case .prefetch(_, let limit, let bytes, let outcome):
            var fields: [(String, JSONValue)] = [
                ("outcome", .string(name(of: outcome))), ("byteLimit", limit.map { .int(Int($0)) } ?? .null),
                ("bytes", .int(Int(bytes))),
            ]
            if case .failed(let error) = outcome { fields.append(("error", .string(error))) }
            return fields
        case .prepared(_, let player, let ready):
            return [("player", .int(player)), ("ready", .bool(ready))]
        case .firstFrame(_, let latency, let prepared), .started(_, let latency, let prepared):
            return [("latency", .double(latency)), ("prepared", .bool(prepared))]
        case .stall(_, let ended, let duration):
            return [("ended", .bool(ended)), ("duration", .double(duration))]
        case .failed(_, let error):
            return [("error", .string(error))]
        case .poolAcquire(let player, _, let waited):
            return [("player", .int(player)), ("waited", .bool(waited))]
        case .poolRelease(let player, _):
            return [("player", .int(player))]
        case .trimmed(_, let bytes):
            return [("bytes", .int(Int(bytes)))]
        case .poster(_, let latency, let fromCache):
            return [("latency", .double(latency)), ("fromCache", .bool(fromCache))]
        case .picture(_, let shows):
            return [("picture", .string(shows.rawValue))]
        case .capped(_, let bytes, let cap):
            return [("bytes", .int(Int(bytes))), ("cap", .int(Int(cap)))]
        case .sized(_, let bytes, let fromCache):
            return [("bytes", .int(Int(bytes))), ("fromCache", .bool(fromCache))]
        case .sizeProbeFailed(_, let error):
            return [("error", .string(error))]
        case .rendition(_, let choice):
            let rendition = choice.rendition
            return [
                ("url", .string(rendition.url)), ("bitrate", .int(rendition.bitrate)),
                ("width", rendition.width.map { .int($0) } ?? .null),
                ("height", rendition.height.map { .int($0) } ?? .null), ("rendition", .int(choice.index)),
                ("reason", .string(choice.reason.rawValue)), ("estimate", .double(choice.estimate)),
                ("estimateSource", .string(choice.estimateSource.rawValue)),
                ("peakBitRate", choice.peakBitRate.map { .double($0) } ?? .null),
            ]
        case .pageRequested, .pagesEnded, .audible:
            return []
        case .page(_, let count):
            return [("count", .int(count))]
        case .pageFailed(_, let error):
            return [("error", .string(error))]
        }
    }

    /// `started`, `finished`, `cancelled` or `failed` (the reason goes in `error`).
    public static func name(of outcome: FeedEvent.PrefetchOutcome) -> String {
        switch outcome {
        case .started: return "started"
        case .finished: return "finished"
        case .cancelled: return "cancelled"
        case .failed: return "failed"
        }
    }

    /// The final object: `{"event": "feed.summary", "time": ..., "swipes", "flings", then every `FeedSummary`
    /// figure under its property's name (latencies as `{"count", "p50", "p95", "max"}` in seconds), with
    /// `rebufferRatio`, `wasteRatio` and `loaderImpressionsPer1000`.
    public static func summary(_ summary: FeedSummary, time: Double, swipes: Int, flings: Int) -> JSONValue {
        func latencies(_ value: FeedSummary.Latencies) -> JSONValue {
            .object([
                ("count", .int(value.count)), ("p50", .double(value.p50)), ("p95", .double(value.p95)),
                ("max", .double(value.max)),
            ])
        }
        return .object([
            ("event", "feed.summary"), ("time", .double(time)), ("swipes", .int(swipes)), ("flings", .int(flings)),
            ("activations", .int(summary.activations)), ("firstFrame", latencies(summary.firstFrame)),
            ("preparedFirstFrame", latencies(summary.preparedFirstFrame)),
            ("coldFirstFrame", latencies(summary.coldFirstFrame)), ("start", latencies(summary.start)),
            ("preparedStart", latencies(summary.preparedStart)), ("stalls", .int(summary.stalls)),
            ("stallSeconds", .double(summary.stallSeconds)), ("watchedSeconds", .double(summary.watchedSeconds)),
            ("rebufferRatio", .double(summary.rebufferRatio)), ("bytesFetched", .int(Int(summary.bytesFetched))),
            ("bytesReceived", .int(Int(summary.bytesReceived))), ("bytesPlayed", .int(Int(summary.bytesPlayed))),
            ("bytesFetchedUnwatched", .int(Int(summary.bytesFetchedUnwatched))),
            ("wasteRatio", .double(summary.wasteRatio)),
            ("blankSwipes", .int(summary.blankSwipes)), ("posterSwipes", .int(summary.posterSwipes)),
            ("loaderImpressions", .int(summary.loaderImpressions)), ("frozenStarts", .int(summary.frozenStarts)),
            ("loaderImpressionsPer1000", .double(summary.loaderImpressionsPer1000)),
            ("failures", .int(summary.failures)), ("prefetchesStarted", .int(summary.prefetchesStarted)),
            ("prefetchesFinished", .int(summary.prefetchesFinished)),
            ("prefetchesCancelled", .int(summary.prefetchesCancelled)),
            ("prefetchesFailed", .int(summary.prefetchesFailed)), ("postersReady", .int(summary.postersReady)),
            ("posterLatency", latencies(summary.posterLatency)), ("poolHits", .int(summary.poolHits)),
            ("poolWaits", .int(summary.poolWaits)), ("trims", .int(summary.trims)),
            ("pagesLoaded", .int(summary.pagesLoaded)), ("entriesAppended", .int(summary.entriesAppended)),
            ("pageFailures", .int(summary.pageFailures)), ("cappedItems", .int(summary.cappedItems)),
            ("cappedItemsTapped", .int(summary.cappedItemsTapped)), ("sizeProbes", .int(summary.sizeProbes)),
            ("sizeProbeFailures", .int(summary.sizeProbeFailures)),
            ("peakMemory", .int(summary.peakMemory)),
        ])
    }
}

import Feed
import Foundation

/// `playctl feed`'s readable output: a header, one line per swipe under column titles, then the summary.
struct FeedText {
    /// The feed's entries (an endless feed's grow: ``FeedRun`` gives the text the feed's own at each line).
    var entries: FeedEntries
    /// Items a second above which a swipe is a fling (the planner's rule).
    let flingSpeed: Double
    /// The width of the item column: `#12 name.mp4`.
    let itemWidth: Int

    init(entries: [FeedEntry], flingSpeed: Double) {
        let list = FeedEntries(entries)
        self.entries = list
        self.flingSpeed = flingSpeed
        itemWidth = min(max(list.indices.map { Self.item($0, list).count }.max() ?? 0, 4), 32)
    }

    /// `#3 b.mp4`: the index and the last part of the URL.
    static func item(_ index: Int, _ entries: FeedEntries) -> String {
        guard entries.indices.contains(index) else { return "#\(index)" }
        return "#\(index) " + (entries[index].url.split(separator: "/").last.map(String.init) ?? entries[index].url)
    }

    /// `feed Media: 6 entries (5 videos, 1 image); 3 swipes (1 fling); network unconstrained, pool 5`.
    func header(manifest: String, scroll: FeedScroll, configuration: FeedConfiguration) -> String {
        let videos = entries.filter { $0.kind == .video }.count
        let flings = scroll.flings(above: flingSpeed)
        return "feed \(manifest): \(Self.count(entries.count, "entry", "entries")) "
            + "(\(Self.count(videos, "video")), \(Self.count(entries.count - videos, "image"))); "
            + "\(Self.count(scroll.swipes, "swipe")) (\(Self.count(flings, "fling"))); "
            + "network \(configuration.profile.rawValue), pool \(configuration.effectivePoolSize)"
            + (configuration.layout.isGrid ? ", grid \(configuration.layout)" : "")
    }

    /// The titles of the swipe lines.
    var columns: String {
        row("time", "item", "kind", "scroll", "start", "first frame", "stalls", "prefetch started/finished/cancelled")
    }

    /// One swipe: when, which item, how it was reached and started, its first frame, its stalls and the prefetches
    /// meanwhile.
    func line(_ swipe: FeedSwipe) -> String {
        let scroll = swipe.number == 0 ? "first" : swipe.speed > flingSpeed ? "fling" : "swipe"
        let start: String
        if swipe.capped {
            // Over the autoload cap: its poster until a tap (then it loaded cold).
            start = swipe.activation == nil ? "capped" : "tapped"
        } else if let activation = swipe.activation {
            start = activation.hasFrame ? "ready" : activation.prepared ? "prepared" : "cold"
        } else {
            start = "failed"
        }
        let first = swipe.firstFrameLatency.map(Self.milliseconds) ?? (swipe.failure != nil ? "failed" : "-")
        return row(
            String(format: "%.3f", swipe.time), Self.item(swipe.index, entries),
            entries.indices.contains(swipe.index) ? entries[swipe.index].kind.rawValue : "-",
            scroll, start, first, String(swipe.stalls),
            "\(swipe.prefetchesStarted)/\(swipe.prefetchesFinished)/\(swipe.prefetchesCancelled)")
    }

    private func row(
        _ time: String, _ item: String, _ kind: String, _ scroll: String, _ start: String, _ first: String,
        _ stalls: String, _ prefetches: String
    ) -> String {
        func left(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(width - text.count, 0))
        }
        func right(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(width - text.count, 0)) + text
        }
        return right(time, 8) + "  " + left(item, itemWidth) + "  " + left(kind, 5) + "  " + left(scroll, 6) + "  "
            + left(start, 8) + "  " + right(first, 11) + "  " + right(stalls, 6) + "  " + prefetches
    }

    /// The summary's lines.
    func summary(_ summary: FeedSummary, scroll: FeedScroll, duration: Double) -> [String] {
        let s = summary
        // Byte caps: said when the run met one (a capped item, a size learned).
        let caps =
            s.cappedItems + s.sizeProbes > 0
            ? [
                "  byte caps     \(Self.count(s.cappedItems, "item")) capped, \(s.cappedItemsTapped) tapped; "
                    + "\(Self.count(s.sizeProbes, "size probe")), \(s.sizeProbeFailures) failed"
            ] : []
        return [
            "summary: \(Self.count(s.activations, "activation")) in \(String(format: "%.2f", duration)) s "
                + "(\(Self.count(scroll.swipes, "swipe")), \(Self.count(scroll.flings(above: flingSpeed), "fling"))), "
                + Self.count(s.failures, "failure"),
            "  first frame   " + Self.latencies(s.firstFrame),
            "    prepared    " + Self.latencies(s.preparedFirstFrame),
            "    cold        " + Self.latencies(s.coldFirstFrame),
            "  at the swipe  \(Self.count(s.blankSwipes, "swipe")) showed nothing, \(s.posterSwipes) a poster",
            "  start         " + Self.latencies(s.start) + " (playing, or an image shown)",
            "    prepared    " + Self.latencies(s.preparedStart),
            "  stalls        \(s.stalls), \(String(format: "%.3f", s.stallSeconds)) s of "
                + "\(String(format: "%.3f", s.watchedSeconds)) s watched; rebuffer ratio "
                + String(format: "%.4f", s.rebufferRatio),
            "  bytes         \(s.bytesFetched) fetched (\(s.bytesReceived) received), \(s.bytesPlayed) played; waste ratio "
                + String(format: "%.3f", s.wasteRatio) + " (\(s.bytesFetchedUnwatched) of items never on screen)",
            "  loader        \(Self.count(s.loaderImpressions, "impression")), "
                + String(format: "%.1f", s.loaderImpressionsPer1000) + " per 1000 activations",
            "  prefetches    \(s.prefetchesStarted) started, \(s.prefetchesFinished) finished, "
                + "\(s.prefetchesCancelled) cancelled, \(s.prefetchesFailed) failed",
            "  pool          \(Self.count(s.poolHits, "hit")), \(Self.count(s.poolWaits, "wait")); "
                + Self.count(s.trims, "trim"),
            "  peak memory   "
                + (s.peakMemory < 0 ? "-" : String(format: "%.1f MiB", Double(s.peakMemory) / 1_048_576)),
        ] + caps
    }

    /// `p50 12.3 ms, p95 30.1 ms, max 30.1 ms (4 items)`, or `none`.
    static func latencies(_ value: FeedSummary.Latencies) -> String {
        guard value.count > 0 else { return "none" }
        return "p50 \(milliseconds(value.p50)), p95 \(milliseconds(value.p95)), max \(milliseconds(value.max)) "
            + "(\(count(value.count, "item")))"
    }

    /// `12.3 ms`.
    static func milliseconds(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

    /// `1 swipe`, `3 swipes` (`plural` when the plural is not the singular and an s).
    static func count(_ value: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(value) " + (value == 1 ? singular : plural ?? singular + "s")
    }
}

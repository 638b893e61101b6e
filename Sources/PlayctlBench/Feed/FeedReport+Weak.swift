import Feed
import PlayctlOutput

/// The weak-link trace's figures (``WeakLinkBench``): its targets and its section of the table.
extension FeedReport {
    /// Bounds of the weak-link trace: swipes that showed nothing at all, prepared items' first frame (one
    /// rendition; with renditions), rebuffering with renditions, and bytes on the wire with renditions over mpv's.
    public static let weakBlankBound = 0.05
    public static let weakPreparedBound = 0.100
    public static let weakRenditionsPreparedBound = 0.033
    public static let weakRebufferBound = 0.01
    public static let weakBytesBound = 0.8

    static let weakPlayctl = WeakLinkBench.plainRun
    static let weakRenditions = WeakLinkBench.renditionsRun

    /// Swipes of `run` whose cell showed nothing at all as the item became active, over its swipes.
    static func blankShare(_ run: SwipeRun?) -> Double? {
        guard let run, !run.swipes.isEmpty, run.summary != nil else { return nil }
        return Double(run.swipes.filter { $0.picture == FeedEvent.Picture.nothing }.count) / Double(run.swipes.count)
    }

    /// `run`'s bytes on the wire over mpv's on the same trace.
    func weakBytesOverMPV(_ run: SwipeRun?) -> Double? {
        guard let bytes = run?.bytesOnWire, let mpv = Self.run(MPVReplay.name(prefetch: true), in: weak)?.bytesOnWire,
            mpv > 0
        else { return nil }
        return Double(bytes) / Double(mpv)
    }

    /// The weak-link targets (none without `--parts weak`'s runs; the renditions' read "not measured" without the
    /// default feed).
    var weakTargets: [FeedTarget] {
        guard !weak.isEmpty else { return [] }
        let playctl = Self.run(Self.weakPlayctl, in: weak)
        let renditions = Self.run(Self.weakRenditions, in: weak)
        func p95(_ run: SwipeRun?) -> Double? {
            run.map { $0.latencies(.prepared) }.flatMap { $0.count > 0 ? $0.p95 : nil }
        }
        return [
            FeedTarget(
                key: "weakBlankSwipes",
                name: "2 Mbit/s, 1.5 s dwells: swipes showing nothing at all (no frame, no poster)",
                value: Self.blankShare(playctl), bound: Self.weakBlankBound, unit: .fraction),
            FeedTarget(
                key: "weakPreparedFirstFrameP95", name: "2 Mbit/s, 1.5 s dwells: prepared items, first frame p95",
                value: p95(playctl), bound: Self.weakPreparedBound, unit: .seconds),
            FeedTarget(
                key: "weakRenditionsPreparedFirstFrameP95",
                name: "2 Mbit/s, 1.5 s dwells, renditions: prepared items, first frame p95",
                value: p95(renditions), bound: Self.weakRenditionsPreparedBound, unit: .seconds),
            FeedTarget(
                key: "weakRenditionsRebufferRatio", name: "2 Mbit/s, 1.5 s dwells, renditions: rebuffer ratio",
                value: renditions?.summary?.rebufferRatio, bound: Self.weakRebufferBound, unit: .fraction),
            FeedTarget(
                key: "weakRenditionsBytesOverMPV",
                name: "2 Mbit/s, 1.5 s dwells, renditions: bytes on the wire over mpv --prefetch-playlist=yes's",
                value: weakBytesOverMPV(renditions), bound: Self.weakBytesBound, unit: .ratio),
        ]
    }

    /// The weak-link section of the table.
    var weakSection: [String] {
        guard !weak.isEmpty else { return [] }
        var lines = [
            "",
            "Weak link: \(bench.weakSwipes) swipes with ~1.5 s dwells (1.26-1.78 s) over 2 Mbit/s; playctl with "
                + "posters (\(WeakLinkBench.posterSize.width)x\(WeakLinkBench.posterSize.height)); renditions: "
                + "500 kbit/s (\(WeakLinkBench.lowFolder)/), 1.5 Mbit/s (\(WeakLinkBench.midFolder)/) and the clip",
        ]
        lines += Self.latencyTable(weak)
        for run in weak {
            var parts: [String] = []
            if let share = Self.blankShare(run) {
                let posters = run.swipes.filter { $0.picture == .poster }.count
                parts.append(
                    "nothing on screen at \(BenchText.fixed(share * 100, 1))% of swipes, a poster at \(posters)")
            }
            if let summary = run.summary {
                parts.append("rebuffer \(BenchText.fixed(summary.rebufferRatio * 100, 2))%")
                parts.append("\(summary.stalls) stalls")
            }
            if let bytes = run.bytesOnWire {
                var text = "\(BenchText.fixed(Double(bytes) / 1_000_000, 2)) MB sent"
                if let ratio = weakBytesOverMPV(run), !run.name.hasPrefix("mpv") {
                    text += " (" + BenchText.fixed(ratio, 3) + "x mpv's)"
                }
                parts.append(text)
            }
            if !parts.isEmpty { lines.append("  \(run.name): " + parts.joined(separator: "; ")) }
        }
        return lines
    }
}

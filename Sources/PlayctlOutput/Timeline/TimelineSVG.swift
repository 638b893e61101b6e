/// A run's timeline drawn as SVG, written directly: the player's status as bands (the waiting reason in them), the
/// media time against the run time (the playhead, the loaded ranges shaded, each seek an arrow from its request to
/// its landing with its latency), marks for stalls, rate changes, PiP steps, content swaps and new items, and for a
/// feed one row per item shown (its swipe, first frame and prefetched bytes). Axes in seconds. The same timeline
/// gives the same bytes.
public enum TimelineSVG {
    static let width = 1000.0
    static let left = 120.0
    static let right = 30.0
    static var plotWidth: Double { width - left - right }

    /// The picture of `timeline`, titled `title`.
    public static func render(_ timeline: RunTimeline, title: String) -> String {
        let span = niceCeiling(max(timeline.end, 0.001))
        let x = { (t: Double) in left + min(max(t, 0), span) / span * plotWidth }
        var svg: [String] = []
        var y = 48.0
        svg.append(text(left, 22, title, class: "title"))

        // Status bands.
        if !timeline.statusBands.isEmpty { svg.append(text(left - 10, y + 15, "status", class: "lane")) }
        for band in timeline.statusBands {
            let (x0, x1) = (x(band.start), x(band.end))
            let label = band.status == "waitingToPlayAtSpecifiedRate" ? "waiting" : band.status
            let full = label + (band.reason.map { ": " + $0 } ?? "")
            svg.append(
                "<rect class=\"status \(escape(label))\" x=\"\(n(x0))\" y=\"\(n(y))\" width=\"\(n(max(x1 - x0, 1)))\" "
                    + "height=\"22\"><title>\(escape(full)) from \(n(band.start)) s to \(n(band.end)) s</title></rect>")
            if x1 - x0 > Double(full.count) * 6 + 8 { svg.append(text(x0 + 4, y + 15, full, class: "band")) }
        }
        if !timeline.statusBands.isEmpty { y += 40 }

        // Media time against run time: loaded ranges, the playhead, seeks.
        let mediaSpan = niceCeiling(max(timeline.mediaEnd, 0.001))
        let plotHeight = timeline.playheads.isEmpty && timeline.seeks.isEmpty && timeline.loaded.isEmpty ? 0 : 180.0
        let my = { (m: Double) in y + plotHeight - min(max(m, 0), mediaSpan) / mediaSpan * plotHeight }
        if plotHeight > 0 { svg.append(contentsOf: mediaAxis(top: y, height: plotHeight, span: mediaSpan)) }
        for loaded in timeline.loaded where loaded.end > loaded.start {
            for range in loaded.ranges {
                svg.append(
                    "<rect class=\"loaded\" x=\"\(n(x(loaded.start)))\" y=\"\(n(my(range.upperBound)))\" "
                        + "width=\"\(n(x(loaded.end) - x(loaded.start)))\" "
                        + "height=\"\(n(my(range.lowerBound) - my(range.upperBound)))\"/>")
            }
        }
        for (item, points) in timeline.playheads {
            let list = points.map { "\(n(x($0.run))),\(n(my($0.media)))" }.joined(separator: " ")
            svg.append("<polyline class=\"playhead\" points=\"\(list)\"><title>\(escape(item))</title></polyline>")
            if let last = points.last {
                svg.append(text(x(last.run) + 4, my(last.media) + 4, item, class: "item-label"))
            }
        }
        for seek in timeline.seeks {
            let (x0, y0) = (x(seek.start), my(seek.from))
            let (x1, y1) = (x(seek.end ?? seek.start), my(seek.to ?? seek.requested))
            let latency = seek.latency.map { DecimalText.format(($0 * 1000).rounded()) + " ms" } ?? "pending"
            let what = seek.finished ? latency : (seek.end == nil ? "pending" : "superseded")
            svg.append(
                "<line class=\"seek\" x1=\"\(n(x0))\" y1=\"\(n(y0))\" x2=\"\(n(x1 + 0.01))\" y2=\"\(n(y1))\" "
                    + "marker-end=\"url(#arrow)\"><title>seek \(n(seek.from)) s to \(n(seek.requested)) s: "
                    + "\(escape(what))</title></line>")
            svg.append(text(x1 + 4, y1 - 4, what, class: "seek-label"))
        }
        if plotHeight > 0 { y += plotHeight + 20 }

        // Marks, each label on the first row where it does not run into the one before.
        if !timeline.marks.isEmpty { svg.append(text(left - 10, y + 20, "events", class: "lane")) }
        var rowEnds: [Double] = []
        for mark in timeline.marks {
            let labelStart = x(mark.time) + 2
            let rowIndex = rowEnds.firstIndex { $0 < labelStart } ?? rowEnds.count
            let labelEnd = labelStart + Double(mark.label.count) * 6.2 + 4
            if rowIndex == rowEnds.count { rowEnds.append(labelEnd) } else { rowEnds[rowIndex] = labelEnd }
            let row = y + 12 + Double(rowIndex) * 14
            svg.append(
                "<line class=\"mark \(mark.kind.rawValue)\" x1=\"\(n(x(mark.time)))\" y1=\"\(n(y))\" "
                    + "x2=\"\(n(x(mark.time)))\" y2=\"\(n(row))\"/>")
            svg.append(text(x(mark.time) + 2, row + 3, mark.label, class: "mark-label \(mark.kind.rawValue)"))
        }
        if !timeline.marks.isEmpty { y += Double(rowEnds.count) * 14 + 16 }

        // The feed's items.
        if !timeline.feedItems.isEmpty {
            svg.append(text(left - 10, y + 12, "feed items", class: "lane"))
            for (row, item) in timeline.feedItems.enumerated() {
                let top = y + Double(row) * 18
                let (x0, x1) = (x(item.visible), x(item.left ?? timeline.end))
                svg.append(
                    "<rect class=\"feed-item\" x=\"\(n(x0))\" y=\"\(n(top))\" width=\"\(n(max(x1 - x0, 1)))\" "
                        + "height=\"14\"/>")
                svg.append("<path class=\"swipe\" d=\"M\(n(x0)) \(n(top)) l6 7 l-6 7 z\"/>")
                var label = "#\(item.index)"
                if let first = item.firstFrame {
                    svg.append("<circle class=\"first-frame\" cx=\"\(n(x(first)))\" cy=\"\(n(top + 7))\" r=\"3\"/>")
                    label += " first frame +" + DecimalText.format(((first - item.visible) * 1000).rounded()) + " ms"
                }
                if item.prefetchedBytes > 0 { label += ", " + bytes(item.prefetchedBytes) + " prefetched" }
                if item.stalls > 0 { label += ", \(item.stalls) stall" + (item.stalls == 1 ? "" : "s") }
                svg.append(text(x0 + 10, top + 11, label, class: "item-label"))
            }
            y += Double(timeline.feedItems.count) * 18 + 8
        }

        // The run-time axis.
        svg.append(
            "<line class=\"axis-line\" x1=\"\(n(left))\" y1=\"\(n(y))\" x2=\"\(n(left + plotWidth))\" y2=\"\(n(y))\"/>")
        for tick in ticks(span: span, step: step(for: span)) {
            svg.append(
                "<line class=\"axis-line\" x1=\"\(n(x(tick)))\" y1=\"\(n(y))\" x2=\"\(n(x(tick)))\" y2=\"\(n(y + 5))\"/>"
            )
            svg.append(text(x(tick), y + 18, seconds(tick), class: "tick-x"))
        }
        svg.append(text(left + plotWidth / 2, y + 36, "run time (s)", class: "axis"))
        let height = y + 50
        return header(height: height) + svg.joined(separator: "\n") + "\n</svg>\n"
    }

    /// The media-time plot's frame, grid and labels (seconds on the left).
    private static func mediaAxis(top: Double, height: Double, span: Double) -> [String] {
        let my = { (m: Double) in top + height - m / span * height }
        var svg = [
            text(left - 10, top - 6, "media time (s)", class: "lane"),
            "<rect class=\"frame\" x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(plotWidth))\" height=\"\(n(height))\"/>",
        ]
        for tick in ticks(span: span, step: step(for: span)) {
            svg.append(
                "<line class=\"grid\" x1=\"\(n(left))\" y1=\"\(n(my(tick)))\" x2=\"\(n(left + plotWidth))\" "
                    + "y2=\"\(n(my(tick)))\"/>")
            svg.append(text(left - 4, my(tick) + 4, seconds(tick), class: "tick-y"))
        }
        return svg
    }

    private static func header(height: Double) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
        viewBox="0 0 \(n(width)) \(n(height))" font-family="sans-serif" font-size="11">
        <style>
        .title { font-size: 14px; font-weight: bold; }
        .lane { text-anchor: end; font-weight: bold; }
        .axis { text-anchor: middle; }
        .tick-x { text-anchor: middle; }
        .tick-y { text-anchor: end; }
        .status.playing { fill: #7bc67b; } .status.paused { fill: #c8c8c8; } .status.waiting { fill: #f0a040; }
        .band { fill: #222; }
        .frame { fill: none; stroke: #888; }
        .grid { stroke: #e4e4e4; }
        .loaded { fill: #9cc3f0; fill-opacity: 0.6; }
        .playhead { fill: none; stroke: #1a1a1a; stroke-width: 1.5; }
        .seek { stroke: #d0302f; stroke-width: 1.5; }
        .seek-label { fill: #d0302f; }
        .mark { stroke: #666; } .mark.stall { stroke: #d0302f; } .mark.pip { stroke: #7a4fc0; }
        .mark.swap, .mark.item { stroke: #1f6fb5; }
        .mark-label.stall { fill: #d0302f; } .mark-label.pip { fill: #7a4fc0; }
        .mark-label.swap, .mark-label.item { fill: #1f6fb5; }
        .feed-item { fill: #dbe9f7; stroke: #7aa6d6; }
        .swipe { fill: #1f6fb5; } .first-frame { fill: #2e8b3e; }
        .axis-line { stroke: #444; }
        </style>
        <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" \
        orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" fill="#d0302f"/></marker></defs>
        <rect width="100%" height="100%" fill="white"/>

        """
    }

    /// The smallest round number of seconds at or above `value` on the axis' steps.
    static func niceCeiling(_ value: Double) -> Double {
        let unit = step(for: value)
        return (value / unit).rounded(.up) * unit
    }

    /// A tick step giving at most 10 ticks over `span`.
    static func step(for span: Double) -> Double {
        let steps = [0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600]
        return steps.first { span / $0 <= 10 } ?? (span / 10).rounded(.up)
    }

    static func ticks(span: Double, step: Double) -> [Double] {
        let count = Int((span / step + 1e-9).rounded(.down))
        return (0...max(count, 0)).map { Double($0) * step }
    }

    private static func text(_ x: Double, _ y: Double, _ content: String, class name: String) -> String {
        "<text class=\"\(name)\" x=\"\(n(x))\" y=\"\(n(y))\">\(escape(content))</text>"
    }

    /// A coordinate with at most two decimals.
    static func n(_ value: Double) -> String { DecimalText.format((value * 100).rounded() / 100) }

    static func seconds(_ value: Double) -> String { DecimalText.format(value) }

    static func bytes(_ count: Int) -> String {
        count >= 1 << 20
            ? DecimalText.format((Double(count) / 1_048_576 * 10).rounded() / 10) + " MB"
            : DecimalText.format((Double(count) / 1024).rounded()) + " KB"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}

import Playback

/// What the readable summary of `playctl play` reports from the metric events: seek latencies (p50/p95 of the
/// seeks that finished), startup, stalls. The latencies are real elapsed time in every clock mode (the metrics'
/// `elapsedTime`): they measure the engine, which a virtual clock does not see working.
struct MetricTally: Sendable {
    private(set) var seekLatencies: [Double] = []
    private(set) var seeksRequested = 0
    private(set) var firstFrameLatency: Double?
    private(set) var startupTime: Double?
    private(set) var stallCount = 0
    private(set) var hangCount = 0

    mutating func record(_ metric: any MetricEvent) {
        switch metric {
        case is SeekEvent:
            seeksRequested += 1
        case let done as SeekDidCompleteEvent where done.finished:
            seekLatencies.append(done.elapsedTime)
        case let first as FirstFrameEvent:
            if firstFrameLatency == nil { firstFrameLatency = first.elapsedTime }
        case let summary as PlaybackSummaryEvent:
            if startupTime == nil { startupTime = summary.startupElapsedTime }
        case is StallEvent:
            stallCount += 1
        case is HangEvent:
            hangCount += 1
        default:
            break
        }
    }

    /// The `fraction` percentile of `values` by the nearest-rank method (p50 of [1, 2, 3, 4] is 2); nil when empty.
    static func percentile(_ fraction: Double, of values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// `first frame after 12.3 ms, startup 10.0 ms; 2 seeks, latency p50 20.1 ms, p95 35.2 ms; 0 stalls`.
    var readable: String {
        func ms(_ seconds: Double?) -> String {
            seconds.map { String(format: "%.1f ms", $0 * 1000) } ?? "-"
        }
        var text = "first frame after \(ms(firstFrameLatency)), startup \(ms(startupTime))"
        text += "; \(seeksRequested) seek\(seeksRequested == 1 ? "" : "s")"
        if !seekLatencies.isEmpty {
            text += ", latency p50 \(ms(Self.percentile(0.5, of: seekLatencies)))"
            text += ", p95 \(ms(Self.percentile(0.95, of: seekLatencies)))"
        }
        text += "; \(stallCount) stall\(stallCount == 1 ? "" : "s")"
        if hangCount > 0 { text += "; \(hangCount) hang\(hangCount == 1 ? "" : "s")" }
        return text
    }
}

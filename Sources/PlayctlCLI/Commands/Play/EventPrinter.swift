import EventJSON
import Locking
import MediaIO
import Playback
import PlayctlOutput

#if canImport(Glibc)
import Glibc
#endif

/// Prints player and metric events as JSON Lines (`--json`), as a readable log, or, in a terminal, as a log with a
/// live one-line status (time / duration, state) like mpv's. With a metrics file, `metric.*` events also go there.
final class EventPrinter: Sendable {
    let json: Bool
    let isTerminal: Bool
    private let writer = JSONLinesWriter.standardOutput()
    private let metrics: JSONLinesWriter?
    private let statusShown = Locked(false)
    private let tally = Locked(MetricTally())

    private let timeline: TimelineRecorder?

    init(json: Bool, metricsPath: String?, timeline: TimelineRecorder? = nil) {
        self.json = json
        self.timeline = timeline
        self.isTerminal = isatty(STDOUT_FILENO) == 1
        self.metrics = metricsPath.flatMap { try? JSONLinesWriter(creatingFileAt: $0) }
    }

    func print(_ record: PlaybackRecord, player: Player) {
        switch record {
        case .event(let event): print(event, player: player)
        case .metric(let metric): print(metric, player: player)
        }
    }

    func print(_ event: PlayerEvent, player: Player) {
        let object = PlayerEventJSON.object(event, hostOffset: 0)
        if let object { timeline?.record(object) }
        if json {
            if let object { try? writer.write(object) }
            return
        }
        if case .periodicTime = event.kind {
            if isTerminal { showStatus(player) }
            return
        }
        guard let object, let line = Self.readable(object) else { return }
        writeLine(line, player: player)
    }

    func print(_ metric: any MetricEvent, player: Player) {
        tally.withLock { $0.record(metric) }
        let object = MetricEventJSON.object(metric)
        timeline?.record(object)
        try? metrics?.write(object)
        if json {
            try? writer.write(object)
        } else if let line = Self.readable(object) {
            writeLine(line, player: player)
        }
    }

    /// A drag's figures (`--scrub`), as `metric.scrub`.
    func scrub(_ statistics: ScrubStatistics, player: Player) {
        let ms = { (seconds: Double?) in seconds.map { JSONValue.double($0 * 1000) } ?? .null }
        let object: JSONValue = .object([
            ("event", "metric.scrub"), ("host", .double(player.clockTime)),
            ("time", PlayerEventJSON.seconds(player.currentTime())), ("positions", .int(statistics.positions)),
            ("keyframeSeeks", .int(statistics.keyframeSeeks)), ("framesShown", .int(statistics.framesShown)),
            ("firstFrameMs", ms(statistics.firstFrameLatency)), ("exactMs", ms(statistics.exactLatency)),
            ("landedTime", statistics.landedTime.map { PlayerEventJSON.seconds($0) } ?? .null),
        ])
        timeline?.record(object)
        if json {
            try? writer.write(object)
        } else if let line = Self.readable(object) {
            writeLine(line, player: player)
        }
    }

    /// The run's summary: frames, first frame, startup, and seek latency percentiles (p50, p95).
    /// `item`: the run's item, for what the player no longer holds once the run ended (invalidated at `--until`).
    func summary(player: Player, item: PlayerItem? = nil, framesRendered: Int, framesDropped: Int) {
        let tally = tally.withLock { $0 }
        // |avsync| over the frames shown while playing (host clock), when there were any.
        let statistics = player.avsyncStatistics
        let avsync = statistics.count > 0 ? statistics : nil
        if json {
            let ms = { (seconds: Double?) in seconds.map { JSONValue.double($0 * 1000) } ?? .null }
            // A live stream's distance from its playlist's end at the end of the run.
            let live = (player.currentItem ?? item)?.currentTimeOffsetFromLive
            let liveMembers: [(String, JSONValue)] =
                live.map { $0.isNumeric ? [("timeOffsetFromLive", .double($0.seconds))] : [] } ?? []
            try? writer.write(
                .object(
                    [
                        ("event", "summary"), ("host", .double(player.clockTime)),
                        ("time", PlayerEventJSON.seconds(player.currentTime())),
                        ("framesRendered", .int(framesRendered)), ("framesDropped", .int(framesDropped)),
                        ("firstFrameMs", ms(tally.firstFrameLatency)), ("startupMs", ms(tally.startupTime)),
                        ("seekLatencyP50Ms", ms(MetricTally.percentile(0.5, of: tally.seekLatencies))),
                        ("seekLatencyP95Ms", ms(MetricTally.percentile(0.95, of: tally.seekLatencies))),
                        ("avsyncMs", ms(player.avsync)), ("avsyncP99Ms", ms(avsync?.p99)),
                        ("avsyncMaxMs", ms(avsync?.max)),
                    ] + liveMembers))
        } else {
            write(
                (isTerminal ? "\r\u{1B}[K" : "")
                    + "summary: \(framesRendered) frames rendered, \(framesDropped) dropped, \(tally.readable)"
                    + (player.isPlayingToAudioDevice ? avsyncText(avsync) : "") + "\n")
        }
    }

    private func avsyncText(_ avsync: (p50: Double, p99: Double, max: Double, count: Int)?) -> String {
        avsync.map { String(format: ", avsync p99 %.1f ms, max %.1f ms", $0.p99 * 1000, $0.max * 1000) } ?? ""
    }

    private func writeLine(_ line: String, player: Player) {
        write((isTerminal && statusShown.withLock { $0 } ? "\r\u{1B}[K" : "") + line + "\n")
        if isTerminal { showStatus(player) }
    }

    private func showStatus(_ player: Player) {
        let time = player.currentTime().seconds
        let duration = player.currentItem?.duration
        let total = duration?.isNumeric == true ? String(format: "%.2f", duration!.seconds) : "?"
        let state: String
        switch player.timeControlStatus {
        case .paused: state = "paused"
        case .playing: state = "playing"
        case .waitingToPlayAtSpecifiedRate: state = "waiting (\(player.reasonForWaitingToPlay?.rawValue ?? ""))"
        }
        statusShown.withLock { $0 = true }
        write(String(format: "\r\u{1B}[K%7.2f / %@  %@", time, total, state))
    }

    private func write(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { buffer in
            Glibc.write(STDOUT_FILENO, buffer.baseAddress, buffer.count - 1)
        }
    }

    /// `  1.234  item.status readyToPlay duration=6.0` — the event name and its fields, for people.
    static func readable(_ object: JSONValue) -> String? {
        guard let members = object.objectValue, case .string(let name)? = object["event"] else { return nil }
        // The run's time first (the player's clock: what every line shares, so the story reads top to bottom),
        // then what happened, then the item and its media time.
        let host = (object["host"] ?? object["hostTime"])?.doubleValue
        var parts = [(host.map { String(format: "%8.3f", $0) } ?? "       -") + "  " + name]
        let seconds = (object["time"] ?? object["mediaTime"])?.doubleValue
        let item = object["item"]?.stringValue
        if item != nil || seconds != nil {
            parts.append((item ?? "") + (seconds.map { String(format: "@%.3f", $0) } ?? ""))
        }
        let context = ["event", "host", "time", "hostTime", "date", "mediaTime", "sessionID", "item"]
        for (key, value) in members where !context.contains(key) {
            parts.append("\(key)=\(value.serialized())")
        }
        return parts.joined(separator: " ")
    }
}

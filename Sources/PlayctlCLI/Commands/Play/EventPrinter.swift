import MediaIO
import Playback
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Prints player events as JSON Lines (`--json`), as a readable log, or, in a terminal, as a log with a live
/// one-line status (time / duration, state) like mpv's. With a metrics file, `metric.*` events also go there.
final class EventPrinter: Sendable {
    let json: Bool
    let isTerminal: Bool
    private let writer = JSONLinesWriter.standardOutput()
    private let metrics: JSONLinesWriter?
    private let statusShown = Mutex(false)

    init(json: Bool, metricsPath: String?) {
        self.json = json
        self.isTerminal = isatty(STDOUT_FILENO) == 1
        self.metrics = metricsPath.flatMap { try? JSONLinesWriter(creatingFileAt: $0) }
    }

    func print(_ event: PlayerEvent, player: Player) {
        let object = PlayerEventJSON.object(event, hostOffset: 0)
        if let object, let metrics, case .string(let name)? = object["event"], name.hasPrefix("metric.") {
            try? metrics.write(object)
        }
        if json {
            if let object { try? writer.write(object) }
            return
        }
        if case .periodicTime = event.kind {
            if isTerminal { showStatus(player) }
            return
        }
        guard let object, let line = Self.readable(object) else { return }
        write((isTerminal && statusShown.withLock { $0 } ? "\r\u{1B}[K" : "") + line + "\n")
        if isTerminal { showStatus(player) }
    }

    func summary(player: Player, framesRendered: Int, framesDropped: Int, firstFrameMs: Double?) {
        let object: JSONValue = .object([
            ("event", "summary"), ("host", .double(player.clockTime)), ("time", PlayerEventJSON.seconds(player.currentTime())),
            ("framesRendered", .int(framesRendered)), ("framesDropped", .int(framesDropped)),
            ("firstFrameMs", firstFrameMs.map(JSONValue.double) ?? .null),
        ])
        try? metrics?.write(.object([("event", "metric.summary")] + (object.objectValue ?? []).dropFirst()))
        if json {
            try? writer.write(object)
        } else {
            let first = firstFrameMs.map { String(format: "%.1f ms", $0) } ?? "-"
            write((isTerminal ? "\r\u{1B}[K" : "") + "summary: \(framesRendered) frames rendered, \(framesDropped) dropped, first frame after \(first)\n")
        }
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
        let time = object["time"]?.doubleValue.map { String(format: "%8.3f", $0) } ?? "       -"
        var parts = ["\(time)  \(name)"]
        for (key, value) in members where !["event", "host", "time"].contains(key) {
            parts.append("\(key)=\(value.serialized())")
        }
        return parts.joined(separator: " ")
    }
}

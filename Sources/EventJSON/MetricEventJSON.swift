import Foundation
import MediaCore
import Playback
import PlayctlOutput
import Streaming

/// The JSON Lines vocabulary of the metric events (`metric.*` in `playctl play --json` and `--metrics-out`).
///
/// Like every line of `--json`, each has `event`, `host` (the player's clock time, `hostTime`) and `time` (the
/// item's time); then `item`, `date` (ISO 8601, UTC), `mediaTime` (the same as `time`) and `sessionID`; then the
/// fields of the event's type under the names of its properties.
public enum MetricEventJSON {
    public static func object(_ metric: any MetricEvent) -> JSONValue {
        let mediaTime = MediaJSON.seconds(metric.mediaTime)
        let context: [(String, JSONValue)] = [
            ("event", .string(metric.name)), ("host", .double(metric.hostTime)), ("time", mediaTime),
            ("item", metric.item.map(JSONValue.string) ?? .null),
            ("date", .string(metric.date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))),
            ("mediaTime", mediaTime), ("sessionID", .string(metric.sessionID)),
        ]
        return .object(context + fields(metric))
    }

    /// The fields of the event's own type.
    public static func fields(_ metric: any MetricEvent) -> [(String, JSONValue)] {
        let seconds = MediaJSON.seconds
        switch metric {
        case let seek as SeekEvent:
            return [
                ("id", .int(Int(seek.id.rawValue))), ("requestedTime", seconds(seek.requestedTime)),
                ("fromTime", seconds(seek.fromTime)), ("tolerance", .string(seek.tolerance.rawValue)),
                ("origin", .string(seek.origin.rawValue)),
            ]
        case let done as SeekDidCompleteEvent:
            return [
                ("id", .int(Int(done.id.rawValue))), ("finished", .bool(done.finished)),
                ("landedTime", seconds(done.landedTime)), ("didSeekInBuffer", .bool(done.didSeekInBuffer)),
                ("latency", .double(done.latency)), ("elapsedTime", .double(done.elapsedTime)),
                ("framesDecoded", .int(done.framesDecoded)),
                ("framesSkipped", .int(done.framesSkipped)), ("framesDiscarded", .int(done.framesDiscarded)),
            ]
        case let change as RateChangeEvent:
            return [
                ("rate", .double(Double(change.rate))), ("previousRate", .double(Double(change.previousRate))),
                ("reason", .string(change.reason.rawValue)),
            ]
        case is StallEvent:
            return []
        case let likely as InitialLikelyToKeepUpEvent:
            return [("timeTaken", .double(likely.timeTaken)), ("isInitial", .bool(likely.isInitial))]
        case let likely as LikelyToKeepUpEvent:
            return [("timeTaken", .double(likely.timeTaken)), ("isInitial", .bool(likely.isInitial))]
        case let first as FirstFrameEvent:
            return [("latency", .double(first.latency)), ("elapsedTime", .double(first.elapsedTime))]
        case let swap as ContentSwapEvent:
            return [
                ("from", swap.from.map(JSONValue.string) ?? .null), ("to", swap.to.map(JSONValue.string) ?? .null),
                ("mode", .string(swap.mode.rawValue)), ("latency", .double(swap.latency)),
                ("elapsedTime", .double(swap.elapsedTime)),
            ]
        case let hang as HangEvent:
            return [
                ("callback", .string(hang.callback)), ("duration", .double(hang.duration)),
                ("threshold", .double(hang.threshold)), ("ended", .bool(hang.ended)),
            ]
        case let start as VariantSwitchStartEvent:
            return variantFields(start.variantSwitch, loadedTimeRanges: start.loadedTimeRanges)
        case let end as VariantSwitchEvent:
            return variantFields(end.variantSwitch, loadedTimeRanges: end.loadedTimeRanges)
                + [("didSucceed", .bool(end.didSucceed))]
        case let summary as PlaybackSummaryEvent:
            var fields: [(String, JSONValue)] = [
                ("stallCount", .int(summary.stallCount)), ("seekCount", .int(summary.seekCount)),
                ("startupTime", .double(summary.startupTime)),
                ("startupElapsedTime", .double(summary.startupElapsedTime)),
                ("stallRecoveryTime", .double(summary.stallRecoveryTime)),
                ("framesRendered", .int(summary.framesRendered)), ("framesDropped", .int(summary.framesDropped)),
                ("playbackDuration", .double(summary.playbackDuration)),
            ]
            if let bytes = summary.bytesTransferred { fields.append(("bytesTransferred", .int(Int(bytes)))) }
            if let rate = summary.downloadRate { fields.append(("downloadRate", .double(rate))) }
            if let first = summary.timeToFirstByte { fields.append(("timeToFirstByte", .double(first))) }
            if let avsync = summary.avsync { fields.append(("avsync", .double(avsync))) }
            return fields
        default:
            return [("description", .string(metric.description))]
        }
    }

    /// A variant switch metric's fields: those of `item.variantSwitch` (`from`, `to`, `at`, `segment`, `reason`,
    /// `estimate`), then `loadedTimeRanges` (`[[start, end], ...]` in seconds, as `item.loadedTimeRanges` has them).
    public static func variantFields(_ change: VariantSwitch, loadedTimeRanges: [TimeRange]) -> [(String, JSONValue)] {
        let seconds = MediaJSON.seconds
        let ranges = loadedTimeRanges.map { JSONValue.array([seconds($0.start), seconds($0.end)]) }
        return MediaJSON.variantFields(change) + [("loadedTimeRanges", .array(ranges))]
    }
}

import EventJSON
import Foundation
import MediaIO
import Playback
import PlayctlOutput
import Streaming

/// The JSON Lines vocabulary of `playctl play --json`: one object per player event, each with `event`, `host`
/// (seconds since start, monotonic) and `time` (the current item's time); `item.*` events also name the `item`.
enum PlayerEventJSON {
    static func seconds(_ time: MediaTime?) -> JSONValue { MediaJSON.seconds(time) }

    /// The event's name and its own fields; nil for events the CLI does not print (periodic ticks), or prints as
    /// the metric events derived from them (see `MetricEventJSON`).
    static func fields(_ kind: PlayerEvent.Kind) -> (String, [(String, JSONValue)])? {
        switch kind {
        case .itemStatus(let status, let duration, let error):
            var fields: [(String, JSONValue)] = [("status", .string(status.name))]
            if status == .readyToPlay { fields.append(("duration", seconds(duration))) }
            if let error { fields.append(("error", .string(error))) }
            return ("item.status", fields)
        case .timeControlStatus(let status, let reason):
            var fields: [(String, JSONValue)] = [("status", .string(status.name))]
            if let reason { fields.append(("reason", .string(reason.rawValue))) }
            return ("player.timeControlStatus", fields)
        case .rate(let rate, let previous):
            return ("player.rate", [("rate", .double(Double(rate))), ("previousRate", .double(Double(previous)))])
        case .currentItem:
            return ("player.currentItem", [])
        case .didPlayToEnd:
            return ("item.didPlayToEnd", [])
        case .failedToPlayToEnd(let error):
            return ("item.failedToPlayToEnd", [("error", .string(error))])
        case .stalled:
            return ("item.stalled", [])
        case .timeJumped:
            return ("item.timeJumped", [])
        case .likelyToKeepUp(let value):
            return ("item.likelyToKeepUp", [("value", .bool(value))])
        case .bufferEmpty(let value):
            return ("item.bufferEmpty", [("value", .bool(value))])
        case .bufferFull(let value):
            return ("item.bufferFull", [("value", .bool(value))])
        case .loadedTimeRanges(let ranges):
            let list = ranges.map { JSONValue.array([seconds($0.start), seconds($0.end)]) }
            return ("item.loadedTimeRanges", [("ranges", .array(list))])
        case .boundaryTime, .periodicTime:
            return nil
        case .seekRequested, .seekCompleted, .firstFrame:
            // Printed as their metric events (`metric.seek`, `metric.seekDidComplete`, `metric.firstFrame`).
            return nil
        case .decodeError(let message):
            return ("item.decodeError", [("error", .string(message))])
        case .framesDropped(let times):
            return ("item.framesDropped", [("count", .int(times.count)), ("times", .array(times.map { seconds($0) }))])
        case .audioOutput(let name, let error):
            return ("player.audioOutput", [("output", .string(name)), ("error", error.map(JSONValue.string) ?? .null)])
        case .cue(let cue):
            return ("item.cue", cueFields(cue))
        case .timedMetadata(let sample):
            return ("item.timedMetadata", metadataFields(sample))
        case .presentationSize(let width, let height):
            return ("item.presentationSize", [("width", .int(width)), ("height", .int(height))])
        case .variantSwitch(let change):
            return ("item.variantSwitch", variantFields(change))
        case .mediaSelection(let characteristic, let option):
            return (
                "item.mediaSelection",
                [
                    ("characteristic", .string(characteristic.rawValue)),
                    ("option", option.map(JSONValue.string) ?? .null),
                ]
            )
        case .mediaOptionFailed(let characteristic, let option, let error):
            return (
                "item.mediaOptionFailed",
                [
                    ("characteristic", .string(characteristic.rawValue)), ("option", .string(option)),
                    ("error", .string(error)),
                ]
            )
        }
    }

    /// A variant switch's fields: `from` and `to` (each `{id, bandwidth, resolution}`, `from` null for the first
    /// choice), `at` (where the first segment of `to` starts, seconds), `segment`, `reason`, `estimate` (bits per
    /// second, the bandwidth estimate it was decided with).
    static func variantFields(_ change: VariantSwitch) -> [(String, JSONValue)] { MediaJSON.variantFields(change) }

    /// A timed metadata sample's fields: `start` and `duration` (seconds; null when the container does not say),
    /// and `frames`, each with its `id` and what it carries: `description`, `text`, `data` (base64); an MP4 event
    /// message box's `emsg` (`scheme`, `value`, `id`, `message` base64), a `mebx` sample's `items`.
    static func metadataFields(_ sample: TimedMetadataSample) -> [(String, JSONValue)] {
        let frames = sample.frames.map { frame -> JSONValue in
            var members: [(String, JSONValue)] = [("id", .string(frame.id))]
            if let description = frame.description { members.append(("description", .string(description))) }
            if let text = frame.text { members.append(("text", .string(text))) }
            if let data = frame.data { members.append(("data", .string(Data(data).base64EncodedString()))) }
            return .object(members)
        }
        var fields: [(String, JSONValue)] = [
            ("start", seconds(sample.time)), ("duration", seconds(sample.duration)), ("frames", .array(frames)),
        ]
        if let event = sample.event {
            fields.append(("emsg", MediaJSON.eventMessageFields(event, message: sample.bytes)))
        }
        if !sample.items.isEmpty { fields.append(("items", .array(sample.items.map(MediaJSON.metadataItem)))) }
        return fields
    }

    /// A cue's fields: `start`, `end` (seconds; null when the track never says), `text`, and `markup` (ASS) and
    /// `style` when they say more than the text.
    static func cueFields(_ cue: TextCue) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [
            ("start", seconds(cue.start)), ("end", seconds(cue.end)), ("text", .string(cue.text)),
        ]
        if cue.markup != cue.text.replacingOccurrences(of: "\n", with: "\\N") {
            fields.append(("markup", .string(cue.markup)))
        }
        if let style = cue.style, style != "Default" { fields.append(("style", .string(style))) }
        return fields
    }

    /// The whole JSON object for `event`, with `host` measured from `origin` (the CLI's start).
    static func object(_ event: PlayerEvent, hostOffset: Double) -> JSONValue? {
        guard let (name, fields) = fields(event.kind) else { return nil }
        var members: [(String, JSONValue)] = [
            ("event", .string(name)), ("host", .double(event.hostTime + hostOffset)),
            ("time", seconds(event.itemTime)),
        ]
        if name.hasPrefix("item.") || name == "player.currentItem" {
            members.append(("item", event.item.map(JSONValue.string) ?? .null))
        }
        return .object(members + fields)
    }
}

extension PlayerItemStatus {
    var name: String {
        switch self {
        case .unknown: return "unknown"
        case .readyToPlay: return "readyToPlay"
        case .failed: return "failed"
        }
    }
}

extension TimeControlStatus {
    var name: String {
        switch self {
        case .paused: return "paused"
        case .waitingToPlayAtSpecifiedRate: return "waitingToPlayAtSpecifiedRate"
        case .playing: return "playing"
        }
    }
}

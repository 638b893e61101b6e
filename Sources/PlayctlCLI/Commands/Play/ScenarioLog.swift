import EventJSON
import Locking
import MediaIO
import PictureInPicture
import Playback
import PlayctlOutput

#if canImport(Glibc)
import Glibc
#endif

/// The events of a Picture in Picture scenario in the order they happened (player events by their process-wide
/// sequence numbers, each metric right after its event; PiP events numbered in the same sequence as the controller
/// produces them), printed after each clock step as JSON Lines or readable lines.
final class ScenarioLog: @unchecked Sendable {
    /// Logged entries, each with its place in the order things happened: an event's sequence number, then the
    /// metrics derived from it in turn.
    private let entries = Locked<[(order: (UInt64, Int), object: JSONValue)]>([])
    private let state = Locked((ended: false, failure: String?.none, firstFrameMs: Double?.none))
    private let writer = JSONLinesWriter.standardOutput()
    var json = false
    /// `--timeline`: keeps every object printed.
    var timeline: TimelineRecorder?
    var swapDone = false

    var failure: String? { state.withLock { $0.failure } }

    func finished(afterSwap swapped: Bool) -> Bool {
        state.withLock { $0.ended } && swapped
    }

    /// Logs the player's events and the metric events derived from them (`metric.*`, each right after its event).
    func observe(_ player: Player, clock: ManualClock) {
        /// The last event of this player, and how many of its metrics were logged.
        let last = Locked((sequence: UInt64(0), metrics: 0))
        player.observeEventsAndMetrics { [self] record in
            let event: PlayerEvent
            switch record {
            case .metric(let metric):
                let order = last.withLock { l -> (UInt64, Int) in
                    l.metrics += 1
                    return (l.sequence, l.metrics)
                }
                entries.withLock { $0.append((order, MetricEventJSON.object(metric))) }
                // The engine's real time to a first frame (the scenario's manual clock does not see it work).
                if let first = metric as? FirstFrameEvent {
                    state.withLock { $0.firstFrameMs = $0.firstFrameMs ?? first.elapsedTime * 1000 }
                }
                return
            case .event(let playerEvent): event = playerEvent
            }
            last.withLock { $0 = (event.sequenceNumber, 0) }
            if let object = PlayerEventJSON.object(event, hostOffset: 0) {
                entries.withLock { $0.append(((event.sequenceNumber, 0), object)) }
            }
            state.withLock { s in
                switch event.kind {
                case .didPlayToEnd: s.ended = true
                case .itemStatus(.failed, _, let error): s.failure = s.failure ?? error
                case .failedToPlayToEnd(let error): s.failure = s.failure ?? error
                case .currentItem: s.ended = false
                default: break
                }
            }
        }
    }

    func observe(_ controller: PictureInPictureController, clock: ManualClock, player: @escaping @Sendable () -> Player)
    {
        controller.observeEventsAsProduced { [self] event in
            let object = Self.object(event, host: clock.now.seconds, time: player().currentTime())
            entries.withLock { $0.append(((PlayerEvent.makeSequenceNumber(), 0), object)) }
        }
    }

    static func object(_ event: PictureInPictureControllerEvent, host: Double, time: MediaTime) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("event", .string("pip." + event.name)), ("host", .double(host)),
            ("time", PlayerEventJSON.seconds(time)),
        ]
        switch event {
        case .possible(let value): members.append(("value", .bool(value)))
        case .failedToStart(let error): members.append(("error", .string("\(error)")))
        case .contentSource(let item, let mode):
            members += [("item", item.map(JSONValue.string) ?? .null), ("mode", .string(mode.rawValue))]
        case .playbackState(let id, let duration, let elapsed, let status):
            members += [
                ("stateID", .int(Int(id))), ("contentDuration", PlayerEventJSON.seconds(duration)),
                ("elapsed", PlayerEventJSON.seconds(elapsed)), ("timeControlStatus", .string(status.name)),
            ]
        case .suspended(let value): members.append(("value", .bool(value)))
        case .stoppedBySystem(let reason): members.append(("reason", .string(reason.rawValue)))
        default: break
        }
        return .object(members)
    }

    /// Prints the entries logged since the last flush, in the order things happened.
    func flush() {
        let pending = entries.withLock { e -> [(order: (UInt64, Int), object: JSONValue)] in
            defer { e.removeAll() }
            return e
        }
        for entry in pending.sorted(by: { $0.order < $1.order }) { emit(entry.object) }
    }

    func summary(clock: Double, time: MediaTime, framesRendered: Int, framesDropped: Int, pipFramesRendered: Int) {
        let firstFrameMs = state.withLock { $0.firstFrameMs }
        if json {
            emit(
                .object([
                    ("event", "summary"), ("host", .double(clock)), ("time", PlayerEventJSON.seconds(time)),
                    ("framesRendered", .int(framesRendered)), ("framesDropped", .int(framesDropped)),
                    ("firstFrameMs", firstFrameMs.map(JSONValue.double) ?? .null),
                    ("pipFramesRendered", .int(pipFramesRendered)),
                ]))
        } else {
            write(
                "summary: \(framesRendered) frames rendered, \(framesDropped) dropped, \(pipFramesRendered) shown in the "
                    + "Picture in Picture window\n")
        }
    }

    private func emit(_ object: JSONValue) {
        timeline?.record(object)
        if json {
            try? writer.write(object)
        } else if let line = EventPrinter.readable(object) {
            write(line + "\n")
        }
    }

    private func write(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count - 1) }
    }
}

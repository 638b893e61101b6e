import MediaIO
import PictureInPicture
import Playback
import Locking
import PlayctlOutput

#if canImport(Glibc)
import Glibc
#endif

/// The events of a Picture in Picture scenario in the order they happened (player events as the engines emit them,
/// PiP events as the controller produces them), printed after each clock step as JSON Lines or readable lines.
final class ScenarioLog: @unchecked Sendable {
    private let entries = Locked<[JSONValue]>([])
    private let state = Locked((ended: false, failure: String?.none, firstFrameMs: Double?.none))
    private let writer = JSONLinesWriter.standardOutput()
    var json = false
    var swapDone = false

    var failure: String? { state.withLock { $0.failure } }

    func finished(afterSwap swapped: Bool) -> Bool {
        state.withLock { $0.ended } && swapped
    }

    /// Logs the player's events and the metric events derived from them (`metric.*`, each right after its event).
    func observe(_ player: Player, clock: ManualClock) {
        player.observeEventsAndMetrics { [self] record in
            let event: PlayerEvent
            switch record {
            case .metric(let metric):
                entries.withLock { $0.append(MetricEventJSON.object(metric)) }
                return
            case .event(let playerEvent): event = playerEvent
            }
            if let object = PlayerEventJSON.object(event, hostOffset: 0) { entries.withLock { $0.append(object) } }
            state.withLock { s in
                switch event.kind {
                case .didPlayToEnd: s.ended = true
                case .itemStatus(.failed, _, let error): s.failure = s.failure ?? error
                case .failedToPlayToEnd(let error): s.failure = s.failure ?? error
                case .firstFrame(let latency): s.firstFrameMs = s.firstFrameMs ?? latency * 1000
                case .currentItem: s.ended = false
                default: break
                }
            }
        }
    }

    func observe(_ controller: PictureInPictureController, clock: ManualClock, player: @escaping @Sendable () -> Player) {
        controller.observeEventsAsProduced { [self] event in
            let object = Self.object(event, host: clock.now.seconds, time: player().currentTime())
            entries.withLock { $0.append(object) }
        }
    }

    static func object(_ event: PictureInPictureControllerEvent, host: Double, time: MediaTime) -> JSONValue {
        var members: [(String, JSONValue)] = [("event", .string("pip." + event.name)), ("host", .double(host)),
                                              ("time", PlayerEventJSON.seconds(time))]
        switch event {
        case .possible(let value): members.append(("value", .bool(value)))
        case .failedToStart(let error): members.append(("error", .string("\(error)")))
        case .contentSource(let item, let mode):
            members += [("item", item.map(JSONValue.string) ?? .null), ("mode", .string(mode.rawValue))]
        case .playbackState(let id, let duration, let elapsed, let status):
            members += [("stateID", .int(Int(id))), ("contentDuration", PlayerEventJSON.seconds(duration)),
                        ("elapsed", PlayerEventJSON.seconds(elapsed)), ("timeControlStatus", .string(status.name))]
        case .suspended(let value): members.append(("value", .bool(value)))
        default: break
        }
        return .object(members)
    }

    /// Prints the entries logged since the last flush.
    func flush() {
        let pending = entries.withLock { e -> [JSONValue] in defer { e.removeAll() }; return e }
        for object in pending { emit(object) }
    }

    func summary(clock: Double, time: MediaTime, framesRendered: Int, framesDropped: Int, pipFramesRendered: Int) {
        let firstFrameMs = state.withLock { $0.firstFrameMs }
        if json {
            emit(.object([("event", "summary"), ("host", .double(clock)), ("time", PlayerEventJSON.seconds(time)),
                          ("framesRendered", .int(framesRendered)), ("framesDropped", .int(framesDropped)),
                          ("firstFrameMs", firstFrameMs.map(JSONValue.double) ?? .null),
                          ("pipFramesRendered", .int(pipFramesRendered))]))
        } else {
            write("summary: \(framesRendered) frames rendered, \(framesDropped) dropped, \(pipFramesRendered) shown in the "
                  + "Picture in Picture window\n")
        }
    }

    private func emit(_ object: JSONValue) {
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

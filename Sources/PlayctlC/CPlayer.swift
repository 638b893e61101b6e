import CPlayctl
import Foundation
import Locking
import MediaIO
import Playback

/// A C function the app gave, with its context, kept as plain values.
struct CCallback: Sendable {
    let function: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let context: UInt

    func call() { function(UnsafeMutableRawPointer(bitPattern: context)) }
}

/// What a `playctl_player *` points at (retained by the handle): a queue player, the layer its picture is
/// rendered from, its C event queue and the app's callbacks.
///
/// Player events are turned into C events on the player's callback executor (``handle(_:)``), in order. The app's
/// callbacks are called with `callbacks` locked, so ``close()`` returns only once none is running and none will.
final class CPlayer: Sendable {
    let player: QueuePlayer
    let layer: PlayerLayer
    let clock: ClockMode
    let events = EventQueue()
    let endAction: playctl_end_action
    let audio: playctl_audio

    struct Callbacks {
        var wakeup: CCallback?
        var frame: CCallback?
        var closed = false
    }

    struct State {
        /// The last `seekCompleted` event, taken by the completion that follows it on the executor.
        var landing: (finished: Bool, landed: MediaTime?)?
        /// The details of the last failure, for `playctl_last_error_message`.
        var lastError = ""
        /// The serial of the frame the last `playctl_render_sw` drew.
        var lastRendered: UInt64 = 0
        /// `playctl_set_metric_events`: whether metric events are queued, and whether the player's metrics are
        /// observed (from the first time they were enabled on).
        var metricEvents = false
        var observingMetrics = false
    }

    let callbacks = Locked(Callbacks())
    let state = Locked(State())
    /// libswscale's context for `playctl_render_sw`, one conversion at a time.
    let converter = Locked(FrameConverter())

    init(clock: ClockMode, audio: playctl_audio, sink: String?, endAction: playctl_end_action) {
        self.clock = clock
        self.audio = audio
        self.endAction = endAction
        player = QueuePlayer(
            clock: clock, audio: audio != PLAYCTL_AUDIO_NONE,
            audioOutput: audio == PLAYCTL_AUDIO_PULSE ? .pulse(sink: sink, server: nil) : .null)
        layer = PlayerLayer(player: player)
        switch endAction {
        case PLAYCTL_END_ADVANCE: player.actionAtItemEnd = .advance
        case PLAYCTL_END_NONE: player.actionAtItemEnd = .none
        default: player.actionAtItemEnd = .pause
        }
        player.observeEvents { [weak self] event in self?.handle(event) }
        layer.onFrame { [weak self] _ in self?.frameShown() }
    }

    /// Stops the player; afterwards no app callback runs and no event is queued.
    func close() {
        callbacks.withLock { $0 = Callbacks(closed: true) }
        events.close()
        player.invalidate()
    }

    /// Sets (or with nil removes) one of the app's callbacks, unless the player is closed.
    func setCallback(
        _ which: WritableKeyPath<Callbacks, CCallback?>,
        _ function: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?, _ context: UnsafeMutableRawPointer?
    ) {
        let value = function.map { CCallback(function: $0, context: UInt(bitPattern: context)) }
        callbacks.withLock { if !$0.closed { $0[keyPath: which] = value } }
    }

    // MARK: Events

    /// Queues `event` and signals the app.
    func push(_ event: QueuedEvent) {
        guard events.push(event) else { return }
        callbacks.withLock { if let wakeup = $0.wakeup { wakeup.call() } }
    }

    private func frameShown() {
        callbacks.withLock { if let frame = $0.frame { frame.call() } }
    }

    /// The player's event as a C event (nil for the events the C API does not report); on the callback executor.
    private func handle(_ event: PlayerEvent) {
        var out = QueuedEvent(PLAYCTL_EVENT_NONE)
        switch event.kind {
        case .itemStatus(let status, let duration, let error):
            out.type = PLAYCTL_EVENT_ITEM_STATUS
            out.itemStatus = Int32(status.rawValue)
            out.duration = duration.map { $0.isNumeric ? $0.seconds : .nan } ?? .nan
            if let error {
                out.error = errorCode(ofItemNamed: event.item, description: error)
                out.message = error
                state.withLock { $0.lastError = error }
            }
        case .timeControlStatus(let status, let reason):
            out.type = PLAYCTL_EVENT_TIME_CONTROL_STATUS
            out.timeControlStatus = Int32(status.rawValue)
            out.waitingReason = Int32(Self.waitingReason(reason).rawValue)
        case .rate(let rate, _):
            out.type = PLAYCTL_EVENT_RATE
            out.rate = Double(rate)
        case .currentItem:
            out.type = PLAYCTL_EVENT_CURRENT_ITEM
            updateEndAction()
        case .didPlayToEnd: out.type = PLAYCTL_EVENT_PLAYED_TO_END
        case .failedToPlayToEnd(let error):
            out.type = PLAYCTL_EVENT_FAILED
            out.error = errorCode(ofItemNamed: event.item, description: error)
            out.message = error
            state.withLock { $0.lastError = error }
        case .stalled: out.type = PLAYCTL_EVENT_STALLED
        case .timeJumped: out.type = PLAYCTL_EVENT_TIME_JUMPED
        case .firstFrame: out.type = PLAYCTL_EVENT_FIRST_FRAME
        case .likelyToKeepUp(let likely):
            out.type = PLAYCTL_EVENT_LIKELY_TO_KEEP_UP
            out.value = likely ? 1 : 0
        case .decodeError(let message):
            out.type = PLAYCTL_EVENT_DECODE_ERROR
            out.message = message
        case .audioOutput(let name, let error):
            out.type = PLAYCTL_EVENT_AUDIO_DEVICE
            out.value = Int64(name == "pulse" ? PLAYCTL_AUDIO_PULSE.rawValue : PLAYCTL_AUDIO_NULL.rawValue)
            if let error {
                out.error = PLAYCTL_ERROR_AUDIO_DEVICE.rawValue
                out.message = error
                state.withLock { $0.lastError = error }
            }
        case .seekCompleted(_, let finished, let landed, _, _):
            // Reported by the completion that follows (it knows the app's request id).
            state.withLock { $0.landing = (finished, landed) }
            return
        case .seekRequested, .bufferEmpty, .bufferFull, .loadedTimeRanges, .periodicTime, .boundaryTime:
            return
        case .framesDropped:
            // Counted in playctl_state.frames_dropped (playctl_get_state).
            return
        case .variantSwitch(let change):
            out.type = PLAYCTL_EVENT_VARIANT_SWITCH
            out.value = Int64(change.to.bandwidth)
            out.message = "\(change.to.resolution?.description ?? "?") \(change.reason)"
        case .cue, .timedMetadata, .presentationSize, .mediaSelection, .mediaOptionFailed:
            // Tracks, timed text and timed metadata are not in the C API yet (docs/c-api.md).
            return
        }
        out.time = event.itemTime.seconds
        out.clockTime = event.hostTime
        out.item = event.item
        push(out)
    }

    /// A seek asked for by the app completed (on the callback executor, right after its `seekCompleted` event,
    /// or alone when the seek was refused).
    func seekCompleted(id: UInt64, finished: Bool) {
        let landing = state.withLock { state -> (finished: Bool, landed: MediaTime?)? in
            defer { state.landing = nil }
            return state.landing
        }
        var out = QueuedEvent(PLAYCTL_EVENT_SEEK_COMPLETED)
        out.requestID = id
        out.finished = finished ? 1 : 0
        if finished, let landed = landing?.landed, landed.isNumeric { out.landed = landed.seconds }
        out.time = player.currentTime().seconds
        out.clockTime = player.clockTime
        out.item = player.currentItem?.name
        push(out)
    }

    /// `PLAYCTL_END_AUTO`: advance while another item is queued, else pause on the last frame.
    func updateEndAction() {
        guard endAction == PLAYCTL_END_AUTO else { return }
        player.actionAtItemEnd = player.items().count > 1 ? .advance : .pause
    }

    /// The C error of the failed item named `name` (the current or a queued one), else read from `description`.
    private func errorCode(ofItemNamed name: String?, description: String) -> Int32 {
        let items = player.items() + [player.currentItem].compactMap { $0 }
        if let error = items.first(where: { $0.name == name && $0.error != nil })?.error {
            return CError.code(of: error)
        }
        return CError.code(ofDescription: description)
    }

    static func waitingReason(_ reason: WaitingReason?) -> playctl_waiting_reason {
        switch reason {
        case nil: return PLAYCTL_WAITING_NONE
        case .toMinimizeStalls: return PLAYCTL_WAITING_TO_MINIMIZE_STALLS
        case .evaluatingBufferingRate: return PLAYCTL_WAITING_EVALUATING_BUFFERING_RATE
        case .noItemToPlay: return PLAYCTL_WAITING_NO_ITEM
        }
    }

    /// Records `message` as the player's last failure and returns `code`.
    func fail(_ code: playctl_error, _ message: String) -> Int32 {
        state.withLock { $0.lastError = message }
        return code.rawValue
    }
}

import Foundation
import MediaIO
import Synchronization

/// The machinery behind a `Player`: its state machines, timeline, items and presentation thread.
///
/// Every field is guarded by `condition`. API calls lock it, feed the state machines and perform the returned
/// actions; the engine thread (one per player, never the cooperative pool) waits on it for frames, clock time,
/// seeks landing and items loading. Callbacks into app code (observers, sinks) run on the engine thread with the
/// lock released.
final class PlayerEngine: @unchecked Sendable, ManualClockParticipant {
    enum Slot {
        case loading(OpenedSources)
        case ready(ItemSession)
        case failed(MediaError)
    }

    struct SeekRecord {
        let item: PlayerItem
        let target: MediaTime
        let exact: Bool
        let origin: SeekOrigin
        let requestedAt: Double
        var completion: (@Sendable (Bool) -> Void)?
    }

    let condition = NSCondition()
    let events: EventBroadcaster<PlayerEvent>
    /// Typed metric streams derived from `events`, and the hang watchdog of the callbacks.
    let metrics: MetricsCollector
    let clockMode: ClockMode
    let clockOrder: UInt64
    let origin = HostTime.now()
    let audioEnabled: Bool
    private static let counter = Atomic<UInt64>(0)

    // MARK: State (guarded by `condition`)
    var control: TimeControlStateMachine
    var seeks = SeekStateMachine()
    var seekRecords: [SeekID: SeekRecord] = [:]
    /// The current item first, then the queue.
    var items: [PlayerItem] = []
    var slots: [ObjectIdentifier: Slot] = [:]
    /// Load results not yet applied (applied at once under a host clock, at `advance` under a manual one).
    var loadResults: [(PlayerItem, Result<ItemSession, MediaError>)] = []
    var loadsInFlight = 0
    var actionAtItemEnd: ActionAtItemEnd
    /// Called on the engine thread when the current item is about to advance (used by `PlayerLooper`).
    var willAdvance: (@Sendable (PlayerItem) -> Void)?

    // Timeline: item time = anchorItemTime + (clock - anchorClock) * clockRate while the clock runs.
    var anchorItemTime: MediaTime = .zero
    var anchorClock: Double = 0
    var clockRunning = false
    var clockRate: Double = 1
    var manualNow: Double = 0
    var virtualNow: Double = 0

    // Presentation
    var lastFrame: VideoFrame?
    /// Where the last audio handed out starts and ends in media time (nil when none since the item or seek began).
    var lastAudio: (start: MediaTime, end: MediaTime)?
    var framesRendered = 0
    var framesDropped = 0
    /// Host clock: for each frame shown while playing, shown time minus due time (seconds).
    var presentationErrors: [Double] = []
    var currentSince: Double = 0
    var firstFrameShown = false
    var endReported = false
    var lastLikelyToKeepUp: Bool?
    /// Set by a stall: the player waits until the decoded-frame queue is full again (or at the end).
    var recoveringFromStall = false
    var lastDecodeErrors = 0
    var receivers: [VideoFrameReceiver] = []
    var audioTaps: [AudioTap] = []
    var observers = TimeObserverSet()
    var deferred: [@Sendable () -> Void] = []
    /// Why the rate changes, while `perform` emits a rate change (read by the metrics).
    var rateChangeReason: RateChangeReason = .setRateCalled
    var advanceRequests: [(MediaTime, CheckedContinuation<Void, Never>)] = []
    var stopped = false

    init(clock: ClockMode, actionAtItemEnd: ActionAtItemEnd, audioEnabled: Bool, automaticallyWaits: Bool = true) {
        self.clockMode = clock
        self.actionAtItemEnd = actionAtItemEnd
        self.audioEnabled = audioEnabled
        self.control = TimeControlStateMachine(automaticallyWaitsToMinimizeStalling: automaticallyWaits)
        self.events = EventBroadcaster()
        self.metrics = MetricsCollector(clock: clock)
        self.clockOrder = Self.counter.add(1, ordering: .relaxed).newValue
        // A player made after a manual clock has moved starts at the clock's time, not at zero.
        self.manualNow = clock.manualClock?.now.seconds ?? 0
        metrics.attach(to: self)
    }

    func start() {
        startDedicatedThread(name: "playctl.player") { [self] in runLoop() }
        clockMode.manualClock?.register(self)
    }

    /// Stops the engine thread and every item's decoding. The engine is unusable afterwards.
    func shutdown() {
        condition.lock()
        stopped = true
        for item in items { item.state.withLock { $0.engine = nil } }
        let sessions = slots.values.compactMap { slot -> ItemSession? in
            if case .ready(let session) = slot { return session }
            return nil
        }
        slots.removeAll()
        items.removeAll()
        let pending = seekRecords.values.compactMap(\.completion)
        seekRecords.removeAll()
        let advances = advanceRequests.map(\.1)
        advanceRequests.removeAll()
        metrics.finish(at: clockNow(), facts: self)
        condition.broadcast()
        condition.unlock()
        for session in sessions { session.stop() }
        for completion in pending { completion(false) }
        for continuation in advances { continuation.resume() }
        clockMode.manualClock?.unregister(self)
        events.finish()
    }

    /// Wakes the engine thread (a pipeline produced something, a load finished, an API call changed state).
    func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    var isManual: Bool { clockMode.manualClock != nil }
    var isUntimed: Bool { if case .untimed = clockMode { return true } else { return false } }

    // MARK: Clock and timeline (locked)

    /// Clock time in seconds since the player was created (virtual under manual and untimed clocks).
    func clockNow() -> Double {
        switch clockMode {
        case .host: return HostTime.now() - origin
        case .manual: return manualNow
        case .untimed: return virtualNow
        }
    }

    var currentItem: PlayerItem? { items.first }

    var currentSession: ItemSession? {
        guard let item = currentItem, case .ready(let session)? = slots[ObjectIdentifier(item)] else { return nil }
        return session
    }

    /// The current item's duration, if known.
    var currentDuration: MediaTime? {
        guard let session = currentSession, session.duration.isNumeric else { return nil }
        return session.duration
    }

    /// The playhead from the timeline alone (no pending seek), clamped to the item.
    func timelineTime(at now: Double) -> MediaTime {
        var time = anchorItemTime
        if clockRunning {
            time = anchorItemTime + MediaTime(seconds: (now - anchorClock) * clockRate)
        }
        if let end = playableEnd(), time > end { time = end }
        return max(time, .zero)
    }

    /// Where the playhead stops: the item's duration, or later when frames or audio run past it (damaged or odd
    /// files whose container understates the duration): the latest media shown or decoded so far.
    func playableEnd() -> MediaTime? {
        guard let duration = currentDuration else { return nil }
        guard let session = currentSession else { return duration }
        return mediaEnd(after: duration, session)
    }

    /// What `currentTime()` reports: a pending seek's target from the moment it was asked for.
    func reportedTime(at now: Double) -> MediaTime {
        seeks.pendingTarget ?? timelineTime(at: now)
    }

    /// Moves the timeline's anchor to `now`, keeping the playhead where it is.
    func reanchor(_ now: Double) {
        anchorItemTime = timelineTime(at: now)
        anchorClock = now
    }

    func currentTime(of item: PlayerItem) -> MediaTime {
        condition.lock()
        defer { condition.unlock() }
        guard item === currentItem else { return item.state.withLock { $0.currentTime } }
        return reportedTime(at: clockNow())
    }

    // MARK: Events (locked)

    func emit(_ kind: PlayerEvent.Kind, item: PlayerItem? = nil, at now: Double? = nil) {
        let time = now ?? clockNow()
        let subject = item ?? currentItem
        let itemTime = subject === currentItem || subject == nil ? reportedTime(at: time) : .zero
        events.yield(PlayerEvent(kind: kind, hostTime: time, itemTime: itemTime, item: subject?.name))
    }

    /// Performs what the time-control machine asked for; a rate change is reported with `reason`.
    func perform(_ actions: [TimeControlStateMachine.Action], at now: Double? = nil,
                 reason: RateChangeReason = .setRateCalled) {
        let time = now ?? clockNow()
        for action in actions {
            switch action {
            case .emitRate(let rate, let previous):
                rateChangeReason = reason
                emit(.rate(rate, previous: previous), at: time)
            case .emitTimeControlStatus(let status, let reason):
                emit(.timeControlStatus(status, reason: reason), at: time)
                observers.statusChanged(engine: self, at: time)
            case .startClock(let rate):
                reanchor(time)
                clockRunning = true
                clockRate = Double(rate)
            case .setClockRate(let rate):
                reanchor(time)
                clockRate = Double(rate)
            case .stopClock:
                reanchor(time)
                clockRunning = false
            case .advanceToNextItem:
                advanceToNextItem(at: time, reason: .itemEnded)
            }
        }
        // The audio is time-stretched for the clock's rate (also for an item that just became current).
        currentSession?.audio?.setRate(clockRate)
        condition.broadcast()
    }
}

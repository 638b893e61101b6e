import Foundation
import MediaIO
import Locking

/// One player's metrics: typed event streams derived from its events, content swaps, and the hang watchdog of
/// the thread that runs its callbacks. Every player has one (`Player.metricsCollector`), collecting from the
/// player's creation, so summaries cover whole sessions whenever a subscriber arrives.
///
/// ## Delivery
/// Delivery never blocks or slows playback. Every stream has a bounded buffer (``defaultBufferLimit`` events
/// unless a limit is given); when a subscriber falls that far behind, the **oldest** events waiting for it are
/// dropped and counted in ``droppedCount``. A stream sees the events from the moment it is made, and ends when the
/// player is invalidated (item streams: when the item is gone). Any number of streams may be open.
public final class MetricsCollector: Sendable {
    /// Events buffered per subscriber when no limit is given.
    public static let defaultBufferLimit = 1024

    private let deriver: Locked<MetricsDeriver>
    private let metrics = EventBroadcaster<any MetricEvent>(bufferLimit: MetricsCollector.defaultBufferLimit)
    private let records = EventBroadcaster<PlaybackRecord>(bufferLimit: MetricsCollector.defaultBufferLimit)
    private let link = Locked(EngineLink())
    private let clock: ClockMode
    /// Times the callbacks the player runs for the app, and reports the ones that block too long.
    let watchdog = CallbackWatchdog()

    private struct EngineLink {
        weak var engine: PlayerEngine?
        var origin: Double?
    }

    /// A collector for a player on `clock`; it collects once attached to the player's engine.
    init(clock: ClockMode) {
        self.clock = clock
        self.deriver = Locked(MetricsDeriver(epoch: Date()))
        watchdog.onHang = { [weak self] callback, duration, threshold, ended in
            self?.reportHang(callback: callback, duration: duration, threshold: threshold, ended: ended)
        }
    }

    /// Follows `engine`'s events from now on.
    func attach(to engine: PlayerEngine) {
        let epoch = MetricDates.epoch(for: clock, origin: engine.origin)
        link.withLock { $0 = EngineLink(engine: engine, origin: engine.origin) }
        deriver.withLock { $0.epoch = epoch }
        engine.events.addSynchronousObserver { [weak self, weak engine] event in
            guard let self, let engine else { return }
            self.consume(event, facts: engine)
        }
    }

    // MARK: Streams

    /// The events of type `type` from now on (like `AVPlayerItem.metrics(forType:)`).
    public func metrics<Event: MetricEvent>(forType type: Event.Type, bufferLimit: Int? = nil) -> AsyncStream<Event> {
        metrics.subscribe(bufferLimit: bufferLimit) { $0 as? Event }
    }

    /// Every metric event from now on.
    public func allMetrics(bufferLimit: Int? = nil) -> AsyncStream<any MetricEvent> {
        metrics.subscribe(bufferLimit: bufferLimit)
    }

    /// Every player event and every metric event from now on, in one order: a metric derived from a player event
    /// follows it at once.
    public func eventsAndMetrics(bufferLimit: Int? = nil) -> AsyncStream<PlaybackRecord> {
        records.subscribe(bufferLimit: bufferLimit)
    }

    /// Calls `observer` for every record of ``eventsAndMetrics(bufferLimit:)`` as it is sent, on the sending thread
    /// (for player events, the engine thread under its lock): an exact trace with no consumer task to wait for.
    /// It must be quick and must not call the player.
    public func observe(_ observer: @escaping @Sendable (PlaybackRecord) -> Void) {
        records.addSynchronousObserver(observer)
    }

    /// Metric events dropped because a subscriber fell behind (all of this player's metric streams).
    public var droppedCount: Int { metrics.droppedCount + records.droppedCount }
    /// The most events that ever waited for one subscriber of this player's metric streams.
    public var peakBufferedCount: Int { max(metrics.peakBufferedCount, records.peakBufferedCount) }

    /// The current session's summary so far (not sent on any stream).
    public func currentSummary() -> PlaybackSummaryEvent {
        withEngineLocked { engine in
            guard let engine else {
                return deriver.withLock { $0.currentSummary(at: $0.lastHostTime, facts: NoFacts()) }
            }
            let now = engine.clockNow()
            return deriver.withLock { $0.currentSummary(at: now, facts: engine) }
        }
    }

    // MARK: Hangs

    /// How long a callback may block the thread that runs the app's callbacks before it counts as a hang, in
    /// seconds (default 0.25).
    public var hangThreshold: Double {
        get { watchdog.threshold }
        set { watchdog.threshold = newValue }
    }

    /// After how long a callback that is still blocked is reported anyway (``HangEvent/ended`` false), in seconds
    /// (default 2; never less than ``hangThreshold``).
    public var ongoingHangReportDelay: Double {
        get { watchdog.ongoingReportDelay }
        set { watchdog.ongoingReportDelay = newValue }
    }

    private func reportHang(callback: String, duration: Double, threshold: Double, ended: Bool) {
        var now = deriver.withLock { $0.lastHostTime }
        if case .host = clock, let origin = link.withLock({ $0.origin }) { now = HostTime.now() - origin }
        let out = deriver.withLock {
            $0.hang(callback: callback, duration: duration, threshold: threshold, ended: ended, at: now)
        }
        deliver(out)
    }

    // MARK: Content swaps

    /// Records that the content shown is swapped from `from` to `to`, in `mode`. The ``ContentSwapEvent`` is sent
    /// when this player shows `to`'s first frame, with the latency from now; at once (latency 0) when `to` is
    /// already its current item with a frame on screen. Call it on the player that shows the new content, just
    /// before making the swap (for `.item`, before `replaceCurrentItem(with:)`).
    public func recordContentSwap(from: PlayerItem?, to: PlayerItem?, mode: ContentSwapMode) {
        let out = withEngineLocked { engine in
            let now = engine?.clockNow() ?? deriver.withLock { $0.lastHostTime }
            return deriver.withLock { $0.recordSwap(from: from?.name, to: to, mode: mode, at: now) }
        }
        deliver(out)
    }

    // MARK: Engine side

    /// Derives the metrics of `event` (on the engine thread, under the engine's lock) and sends them.
    func consume(_ event: PlayerEvent, facts: some MetricsFacts) {
        let out = deriver.withLock { $0.consume(event, facts: facts) }
        records.yield(.event(event))
        deliver(out)
        if case .currentItem = event.kind { ItemMetrics.purge() }
    }

    /// The player is going away (under the engine's lock): sends the owed summary and ends every stream.
    func finish(at now: Double, facts: some MetricsFacts) {
        guard !metrics.isFinished else { return }
        watchdog.stopMonitoring()
        deliver(deriver.withLock { $0.finish(at: now, facts: facts) })
        metrics.finish()
        records.finish()
    }

    private func deliver(_ out: MetricsDeriver.Output) {
        for (event, item) in out {
            metrics.yield(event)
            records.yield(.metric(event))
            if let item { ItemMetrics.yield(event, for: item) }
        }
    }

    /// Runs `body` with the engine's lock held (the lock order is engine, then collector).
    private func withEngineLocked<T>(_ body: (PlayerEngine?) -> T) -> T {
        guard let engine = link.withLock({ $0.engine }) else { return body(nil) }
        engine.condition.lock()
        defer { engine.condition.unlock() }
        return body(engine)
    }
}

/// Facts of a player that is gone: nothing decoded, no frames.
struct NoFacts: MetricsFacts {
    func isDecoded(_ target: MediaTime) -> Bool { false }
    var rateChangeReason: RateChangeReason { .setRateCalled }
    var frameCounts: (rendered: Int, dropped: Int) { (0, 0) }
    var currentPlayerItem: PlayerItem? { nil }
}

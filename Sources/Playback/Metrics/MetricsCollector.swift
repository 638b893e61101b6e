import Foundation
import Locking
import Streaming

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
    private let metrics = EventBroadcaster<Sequenced<any MetricEvent>>(bufferLimit: MetricsCollector.defaultBufferLimit)
    private let records = EventBroadcaster<Sequenced<PlaybackRecord>>(bufferLimit: MetricsCollector.defaultBufferLimit)
    private let link = Locked(CoreLink())
    private let clock: ClockMode
    /// Host time at the player's clock time zero.
    private let origin: Double
    /// Times the callbacks the player runs for the app, and reports the ones that block too long.
    let watchdog = CallbackWatchdog()

    private struct CoreLink {
        weak var core: PlayerCore?
    }

    /// A collector for a player on `clock` made at host time `origin`; it collects once attached to its core.
    init(clock: ClockMode, origin: Double) {
        self.clock = clock
        self.origin = origin
        self.deriver = Locked(MetricsDeriver(epoch: MetricDates.epoch(for: clock, origin: origin)))
        watchdog.onHang = { [weak self] callback, duration, threshold, ended in
            self?.reportHang(callback: callback, duration: duration, threshold: threshold, ended: ended)
        }
    }

    /// Follows `core` from now on (the core derives each event's metrics as it emits it).
    func attach(to core: PlayerCore) {
        link.withLock { $0.core = core }
    }

    // MARK: Streams

    /// The events of type `type` from now on (like `AVPlayerItem.metrics(forType:)`).
    public func metrics<Event: MetricEvent>(forType type: Event.Type, bufferLimit: Int? = nil) -> AsyncStream<Event> {
        subscribing { metrics.subscribe(after: $0, bufferLimit: bufferLimit) { $0 as? Event } }
    }

    /// Every metric event from now on.
    public func allMetrics(bufferLimit: Int? = nil) -> AsyncStream<any MetricEvent> {
        subscribing { metrics.subscribe(after: $0, bufferLimit: bufferLimit) { $0 } }
    }

    /// Every player event and every metric event from now on, in one order: a metric derived from a player event
    /// follows it at once.
    public func eventsAndMetrics(bufferLimit: Int? = nil) -> AsyncStream<PlaybackRecord> {
        subscribing { records.subscribe(after: $0, bufferLimit: bufferLimit) { $0 } }
    }

    /// Calls `observer` for every record of ``eventsAndMetrics(bufferLimit:)`` as it is sent, in order, on the
    /// player's callback executor (hang reports of a callback that is still blocked come from the watchdog's own
    /// thread): an exact trace with no consumer task to wait for. It may call the player.
    public func observe(_ observer: @escaping @Sendable (PlaybackRecord) -> Void) {
        subscribing { records.addSynchronousObserver(after: $0, observer) }
    }

    /// Runs `body` with the player's last publication number (under its lock), or with 0 once it is gone.
    private func subscribing<T>(_ body: (UInt64) -> T) -> T {
        guard let core = link.withLock({ $0.core }) else { return body(0) }
        return core.subscribing(body)
    }

    /// Metric events dropped because a subscriber fell behind (all of this player's metric streams).
    public var droppedCount: Int { metrics.droppedCount + records.droppedCount }
    /// The most events that ever waited for one subscriber of this player's metric streams.
    public var peakBufferedCount: Int { max(metrics.peakBufferedCount, records.peakBufferedCount) }

    /// The current session's summary so far (not sent on any stream).
    public func currentSummary() -> PlaybackSummaryEvent {
        guard let core = link.withLock({ $0.core }) else {
            return deriver.withLock { $0.currentSummary(at: $0.lastHostTime, facts: NoFacts()) }
        }
        return core.read { core in
            let now = core.clockNow()
            return deriver.withLock { $0.currentSummary(at: now, facts: core) }
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

    /// A hang, sent at once from the thread that noticed it (the callback executor may be the one blocked).
    private func reportHang(callback: String, duration: Double, threshold: Double, ended: Bool) {
        var now = deriver.withLock { $0.lastHostTime }
        if case .host = clock { now = HostTime.now() - origin }
        let out = deriver.withLock {
            $0.hang(callback: callback, duration: duration, threshold: threshold, ended: ended, at: now)
        }
        deliver(out, sequence: .max)
    }

    // MARK: Content swaps

    /// Records that the content shown is swapped from `from` to `to`, in `mode`. The ``ContentSwapEvent`` is sent
    /// when this player shows `to`'s first frame, with the latency from now; at once (latency 0) when `to` is
    /// already its current item with a frame on screen. Call it on the player that shows the new content, just
    /// before making the swap (for `.item`, before `replaceCurrentItem(with:)`).
    public func recordContentSwap(from: PlayerItem?, to: PlayerItem?, mode: ContentSwapMode) {
        guard let core = link.withLock({ $0.core }) else { return }
        core.mutate { core in
            let now = core.clockNow()
            let out = deriver.withLock { $0.recordSwap(from: from?.name, to: to, mode: mode, at: now) }
            guard !out.isEmpty else { return }
            let sequence = core.nextPublication()
            core.executor.enqueue { [self] in deliver(out, sequence: sequence) }
        }
    }

    // MARK: Engine side

    /// Derives the metrics of `event`, under the core's lock (with `facts` as they are now); returns what sends
    /// the event's record and its metrics, for the callback executor.
    func derive(_ event: PlayerEvent, sequence: UInt64, facts: some MetricsFacts) -> @Sendable () -> Void {
        let out = deriver.withLock { $0.consume(event, facts: facts) }
        return { [self] in
            records.yield(Sequenced(sequence: sequence, value: .event(event)))
            deliver(out, sequence: sequence)
            if case .currentItem = event.kind { ItemMetrics.purge() }
        }
    }

    /// The primary reader of `item`'s stream entered a segment of another variant (under the core's lock): sends the
    /// variant switches it completes, after what the core published so far.
    func variantRead(_ read: VariantRead, of item: PlayerItem, core: PlayerCore) {
        let now = core.clockNow()
        let mediaTime = item === core.currentItem ? core.reportedTime(at: now) : .zero
        let out = deriver.withLock { $0.variantRead(read, of: item, at: now, mediaTime: mediaTime, facts: core) }
        guard !out.isEmpty else { return }
        let sequence = core.nextPublication()
        core.executor.enqueue { [self] in deliver(out, sequence: sequence) }
    }

    /// The player is going away (under the core's lock): derives the owed summary; returns what sends it and ends
    /// every stream, for the callback executor.
    func finish(at now: Double, sequence: UInt64, facts: some MetricsFacts) -> @Sendable () -> Void {
        watchdog.stopMonitoring()
        let out = deriver.withLock { $0.finish(at: now, facts: facts) }
        return { [self] in
            guard !metrics.isFinished else { return }
            deliver(out, sequence: sequence)
            metrics.finish()
            records.finish()
        }
    }

    private func deliver(_ out: MetricsDeriver.Output, sequence: UInt64) {
        for (event, item) in out {
            metrics.yield(Sequenced(sequence: sequence, value: event))
            records.yield(Sequenced(sequence: sequence, value: .metric(event)))
            if let item { ItemMetrics.yield(event, for: item) }
        }
    }
}

/// Facts of a player that is gone: nothing decoded, no frames.
struct NoFacts: MetricsFacts {
    func isDecoded(_ target: MediaTime) -> Bool { false }
    var rateChangeReason: RateChangeReason { .setRateCalled }
    var frameCounts: (rendered: Int, dropped: Int) { (0, 0) }
    var currentPlayerItem: PlayerItem? { nil }
}

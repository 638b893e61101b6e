import Foundation
import Locking

/// Watches the thread that runs a player's callbacks into app code (time observers, video sinks, audio taps).
///
/// Each callback runs inside ``measure(_:_:)``. A callback that blocks at least ``threshold`` seconds is a hang,
/// reported once: when it returns, with its whole duration; or, if it is still blocked after
/// ``ongoingReportDelay``, by the watchdog's own monitor thread, as ongoing (and not again when it returns).
/// Durations are real (host) time under every clock: a blocked thread blocks real time.
final class CallbackWatchdog: Sendable {
    /// Gets the callback's label, how long it blocked, the threshold, and whether it had returned.
    typealias HangHandler =
        @Sendable (
            _ callback: String, _ duration: Double, _ threshold: Double,
            _ ended: Bool
        ) -> Void

    private struct Running {
        let label: String
        let start: Double
        var reported = false
    }

    private struct State {
        var threshold = 0.25
        var ongoingReportDelay = 2.0
        var running: Running?
        var onHang: HangHandler?
    }

    private let state = Locked(State())

    init() {
        HangMonitor.shared.register(self)
    }

    /// Stops the monitor thread's checks of this watchdog (its player was invalidated); callbacks are still timed.
    func stopMonitoring() {
        HangMonitor.shared.unregister(self)
    }

    /// Seconds a callback may block before it is a hang.
    var threshold: Double {
        get { state.withLock { $0.threshold } }
        set { state.withLock { $0.threshold = max(newValue, 0) } }
    }

    /// Seconds after which a callback still blocked is reported as ongoing (never less than the threshold).
    var ongoingReportDelay: Double {
        get { state.withLock { $0.ongoingReportDelay } }
        set { state.withLock { $0.ongoingReportDelay = max(newValue, 0) } }
    }

    /// Called for each hang (on the blocked thread once the callback returns, or on the monitor thread).
    var onHang: HangHandler? {
        get { state.withLock { $0.onHang } }
        set { state.withLock { $0.onHang = newValue } }
    }

    /// Runs `body`, the callback called `label`, and reports it if it blocks too long. Nested calls are timed as
    /// part of the outer one.
    func measure(_ label: String, _ body: () -> Void) {
        let start = HostTime.now()
        let outermost = state.withLock { state -> Bool in
            guard state.running == nil else { return false }
            state.running = Running(label: label, start: start)
            return true
        }
        body()
        guard outermost else { return }
        let end = HostTime.now()
        let hang = state.withLock { state -> (Double, HangHandler?)? in
            let running = state.running
            state.running = nil
            guard let running, !running.reported, end - running.start >= state.threshold else { return nil }
            return (state.threshold, state.onHang)
        }
        if let (threshold, onHang) = hang { onHang?(label, end - start, threshold, true) }
    }

    /// Monitor thread: reports the callback in progress if it has been blocked past the ongoing report delay.
    func check(now: Double) {
        let hang = state.withLock { state -> (String, Double, Double, HangHandler?)? in
            guard var running = state.running, !running.reported,
                now - running.start >= max(state.ongoingReportDelay, state.threshold)
            else { return nil }
            running.reported = true
            state.running = running
            return (running.label, now - running.start, state.threshold, state.onHang)
        }
        if let (label, duration, threshold, onHang) = hang { onHang?(label, duration, threshold, false) }
    }
}

/// One thread for the whole process that looks at every watched callback thread ten times a second, to report
/// callbacks that stay blocked. It runs only while some player is alive (not invalidated), and ends otherwise.
final class HangMonitor: @unchecked Sendable {
    static let shared = HangMonitor()
    static let interval = 0.1

    private struct WeakWatchdog {
        weak var value: CallbackWatchdog?
    }

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var watchdogs: [WeakWatchdog] = []
    private var running = false

    /// Watches `watchdog` until ``unregister(_:)`` or until it is gone.
    func register(_ watchdog: CallbackWatchdog) {
        condition.lock()
        watchdogs.append(WeakWatchdog(value: watchdog))
        if !running {
            running = true
            let thread = Thread { [self] in run() }
            thread.name = "playctl.hang"
            thread.stackSize = 256 << 10
            thread.start()
        }
        condition.broadcast()
        condition.unlock()
    }

    /// Stops watching `watchdog` (its player was invalidated).
    func unregister(_ watchdog: CallbackWatchdog) {
        condition.lock()
        watchdogs.removeAll { $0.value == nil || $0.value === watchdog }
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            watchdogs.removeAll { $0.value == nil }
            if watchdogs.isEmpty {
                // Nothing to watch: the thread ends, and the next registration starts another.
                running = false
                condition.unlock()
                return
            }
            do {
                let live = watchdogs.compactMap(\.value)
                condition.unlock()
                let now = HostTime.now()
                for watchdog in live { watchdog.check(now: now) }
            }
            condition.lock()
            _ = condition.wait(until: Date(timeIntervalSinceNow: Self.interval))
        }
    }
}

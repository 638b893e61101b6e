import CPlayctl
import Locking

/// The event queue of a feed or a posters handle and the app's wakeup callback: what `playctl_*_wait_event`,
/// `playctl_*_wakeup` and `playctl_*_set_wakeup_callback` work on.
///
/// The callback is called with `wakeup` locked (a lock of the C API's own, never an engine lock), so ``close()``
/// returns only once none is running and none will.
final class EventSource: Sendable {
    let events = EventQueue()
    private let wakeup = Locked<(callback: CCallback?, closed: Bool)>((nil, false))

    /// Queues `event` and signals the app.
    func push(_ event: QueuedEvent) {
        guard events.push(event) else { return }
        wakeup.withLock { if let callback = $0.callback { callback.call() } }
    }

    /// Sets (or with nil removes) the wakeup callback, unless closed.
    func setWakeup(
        _ function: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?, _ context: UnsafeMutableRawPointer?
    ) {
        let value = function.map { CCallback(function: $0, context: UInt(bitPattern: context)) }
        wakeup.withLock { if !$0.closed { $0.callback = value } }
    }

    /// Wakes a waiter (and calls the wakeup callback).
    func wakeUp() {
        events.wakeUp()
        wakeup.withLock { if let callback = $0.callback { callback.call() } }
    }

    /// No more events or callbacks; returns once a callback in progress has returned.
    func close() {
        wakeup.withLock { $0 = (nil, true) }
        events.close()
    }
}

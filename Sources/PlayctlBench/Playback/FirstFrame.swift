import Foundation
import Locking

/// Marks the moment something first happened; `wait` returns the seconds from `start` to it.
final class FirstFrame: Sendable {
    private struct State {
        var moment: Date?
        var waiter: CheckedContinuation<Date?, Never>?
        var timedOut = false
    }
    private let state = Locked(State())

    /// Called by the sink when a frame is shown: the first call sets the moment and wakes the waiter.
    func mark() {
        let now = Date()
        let waiter = state.withLock { s -> CheckedContinuation<Date?, Never>? in
            guard s.moment == nil, !s.timedOut else { return nil }
            s.moment = now
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(returning: now)
    }

    /// Seconds from `start` to the first frame (NaN after 10 s). Waits without polling: a poller would take CPU
    /// from the decoder it measures (on 2 cores a 200 µs poll made starts measurably slower).
    func wait(since start: Date) async -> Double {
        let timeout = Task { [self] in
            try? await Task.sleep(for: .seconds(10))
            let waiter = state.withLock { s -> CheckedContinuation<Date?, Never>? in
                guard s.moment == nil else { return nil }
                s.timedOut = true
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume(returning: nil)
        }
        defer { timeout.cancel() }
        let moment = await withCheckedContinuation { (continuation: CheckedContinuation<Date?, Never>) in
            let known = state.withLock { s -> Date?? in
                if let moment = s.moment { return .some(moment) }
                if s.timedOut { return .some(nil) }
                s.waiter = continuation
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
        return moment.map { $0.timeIntervalSince(start) } ?? .nan
    }
}

import Foundation
import Locking

/// At most `count` holders at once, waited for without holding a thread: tests that spawn short child processes
/// take a slot each, so that a suite of them runs as many children at once as there are CPUs (dozens spawned at
/// the same moment make every child's timing meaningless) while the tasks waiting for a slot leave the
/// cooperative pool's threads to other tests. Waiters are served in order.
public final class ProcessSlots: Sendable {
    private struct State {
        var free: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Locked<State>

    /// Slots for `count` holders at once (at least one).
    public init(count: Int) { state = Locked(State(free: max(count, 1))) }

    /// One slot per CPU this process may use.
    public static let perCPU = ProcessSlots(count: ProcessInfo.processInfo.activeProcessorCount)

    /// Runs `body` holding a slot, waiting for one first if none is free.
    public func withSlot<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                guard state.free > 0 else {
                    state.waiters.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}

import Locking

/// The result of `body`, or ``WaitTimedOut`` naming `what` if `timeout` passes first. `body` runs in a task of its
/// own: at the deadline it is cancelled and left behind, so the caller gets control back even from a wait that never
/// ends on cancellation (a continuation a hung component never resumes). Like ``waitUntil(_:timeout:interval:_:)``'s,
/// the timeout is a hang detector, not a judgement of speed: generous, so a saturated machine never trips it.
public func withDeadline<T: Sendable>(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(60),
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let slot = DeadlineSlot<T>()
    let description = what()
    let work = Task {
        do {
            slot.resume(with: .success(try await body()))
        } catch {
            slot.resume(with: .failure(error))
        }
    }
    let timer = Task {
        try? await Task.sleep(for: timeout)
        slot.resume(with: .failure(WaitTimedOut(what: description, timeout: timeout)))
    }
    defer {
        work.cancel()
        timer.cancel()
    }
    // The caller's own cancellation ends the wait too (as a timeout would).
    return try await withTaskCancellationHandler {
        try await withCheckedContinuation { slot.set($0) }.get()
    } onCancel: {
        slot.resume(with: .failure(CancellationError()))
    }
}

/// The first element of `sequence` that `predicate` accepts; nil when the sequence ends first (a player invalidated,
/// say). Throws ``WaitTimedOut`` naming `what` if none comes within `timeout` (see
/// ``withDeadline(_:timeout:_:)``).
public func firstElement<S: AsyncSequence & Sendable>(
    of sequence: S, _ what: @autoclosure () -> String, timeout: Duration = .seconds(60),
    where predicate: @escaping @Sendable (S.Element) -> Bool = { _ in true }
) async throws -> S.Element? where S.Element: Sendable {
    try await withDeadline(what(), timeout: timeout) {
        for try await element in sequence where predicate(element) { return element }
        return nil
    }
}

/// The waiting caller of ``withDeadline(_:timeout:_:)``, resumed once by whichever ends first: the body, the timer
/// or a cancellation. A result that comes before the caller waits is kept for it.
private final class DeadlineSlot<T: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<Result<T, any Error>, Never>)
        case done(Result<T, any Error>)
        case delivered
    }

    private let state = Locked(State.empty)

    func set(_ continuation: CheckedContinuation<Result<T, any Error>, Never>) {
        let ready: Result<T, any Error>? = state.withLock { state in
            switch state {
            case .empty:
                state = .waiting(continuation)
                return nil
            case .done(let result):
                state = .delivered
                return result
            case .waiting, .delivered:
                preconditionFailure("withDeadline waits once")
            }
        }
        if let ready { continuation.resume(returning: ready) }
    }

    func resume(with result: Result<T, any Error>) {
        let waiting: CheckedContinuation<Result<T, any Error>, Never>? = state.withLock { state in
            switch state {
            case .empty:
                state = .done(result)
                return nil
            case .waiting(let continuation):
                state = .delivered
                return continuation
            case .done, .delivered:
                return nil
            }
        }
        waiting?.resume(returning: result)
    }
}

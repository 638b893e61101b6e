import Dispatch
import Locking

/// How a fetch someone waits for ended (a prefetch): recorded at once, where the fetch ends (so a scheduler
/// following a manual clock reads it in the same step), and told to a callback off every lock, on a global queue.
final class FetchCompletion: Sendable {
    private let outcome = Locked<Result<Void, MediaError>?>(nil)
    private let callback: @Sendable (MediaError?) -> Void
    init(_ callback: @escaping @Sendable (MediaError?) -> Void) { self.callback = callback }

    /// Nil while the fetch runs.
    var result: Result<Void, MediaError>? { outcome.withLock { $0 } }

    /// Records the end (the first one counts) and calls the callback with it.
    func complete(_ error: MediaError?) {
        let first = outcome.withLock { outcome -> Bool in
            guard outcome == nil else { return false }
            outcome = error.map { .failure($0) } ?? .success(())
            return true
        }
        guard first else { return }
        let callback = self.callback
        DispatchQueue.global().async { callback(error) }
    }
}

import Dispatch
import Locking

/// Async work run from a command's synchronous `run`: the work goes on a detached task while the calling thread
/// (the main thread) waits for it, so no thread of Swift's cooperative pool is ever blocked.
enum AsyncWork {
    /// Runs `work` to its end and returns what it returned.
    static func wait<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let result = Locked<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let value = await work()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }!
    }
}

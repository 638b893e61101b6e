import Dispatch
import Locking

/// Async work run from a command's synchronous `run`: the work goes on a detached task while the calling thread
/// (the main thread) waits for it, so no thread of Swift's cooperative pool is ever blocked.
package enum AsyncWork {
    /// Runs `work` to its end and returns what it returned, or throws what it threw.
    package static func wait<T: Sendable, E: Error>(_ work: @escaping @Sendable () async throws(E) -> T) throws(E) -> T
    {
        let result = Locked<Result<T, E>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let value: Result<T, E>
            do throws(E) { value = .success(try await work()) } catch { value = .failure(error) }
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0 }!.get()
    }
}

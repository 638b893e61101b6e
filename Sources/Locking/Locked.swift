#if canImport(Glibc)
import Glibc
#endif

/// A value guarded by a `pthread_mutex_t`: the project's lock.
///
/// Why not `Synchronization.Mutex`: on Linux its contended path takes the lock through a priority-inheriting futex
/// in the kernel, which ThreadSanitizer cannot see, so every contended section is reported as a data race (a
/// two-thread counter under `Mutex` is reported; under this lock it is not). The project's "no data races" is
/// checked with ThreadSanitizer in CI, so its locks must be ones the sanitizer understands.
///
/// Give it a value that has a size (a counter, a flag), never `()`: two threads taking a `Locked(())` in turn are
/// reported by ThreadSanitizer as a "Swift access race" (the empty value's access falls on the object's first bytes,
/// which each call reads before it locks); with an `Int` they are not.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held and the value to read or change. Not reentrant: `body` must not take this
    /// lock again.
    @inline(__always)
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

import Dispatch

/// Runs an app block on the queue the app gave (the main queue when it gave none), from the player's callback
/// thread. Under the manual and untimed clocks the callback thread waits for the block (`sync`), so what the block
/// does takes effect at the clock time it was called for and `ManualClock.advance` returns after it: the main queue
/// must then be running (a test awaiting on the main actor, or `PlayctlAVFoundationTesting.MainQueue`). Under the
/// host clock it does not wait (`async`): the engine never waits for app code.
struct QueueDelivery: Sendable {
    let queue: DispatchQueue
    let waits: Bool

    init(_ queue: DispatchQueue?, waits: Bool) {
        self.queue = queue ?? .main
        self.waits = waits
    }

    func run(_ work: @escaping @Sendable () -> Void) {
        if waits {
            queue.sync(execute: work)
        } else {
            queue.async(execute: work)
        }
    }
}

import Foundation

/// The main queue, for tests whose code delivers to it (time observers and Picture in Picture delegates default to
/// it, as on iOS).
///
/// Under a manual clock the player's callback thread waits for a block it hands to the main queue, so the main
/// queue must be running while the clock advances. It is in `swift test`'s Swift Testing and async XCTest runs (an
/// async test, `@MainActor` or not, leaves it free while it awaits). A test that blocks the main thread instead
/// (a synchronous XCTest method) runs it with ``run(for:)`` or ``run(until:timeout:)``.
public enum MainQueue {
    /// Runs the main queue (and run loop) for `seconds` of real time. Call it on the main thread.
    public static func run(for seconds: Double) {
        RunLoop.main.run(until: Date(timeIntervalSinceNow: seconds))
    }

    /// Runs the main queue until `condition` holds or `timeout` seconds of real time pass; whether it held.
    @discardableResult
    public static func run(until condition: () -> Bool, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() {
            if Date() >= deadline { return false }
            RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.005))
        }
        return true
    }
}

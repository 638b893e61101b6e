import Foundation

/// A wait that ran out: what it waited for, and for how long.
public struct WaitTimedOut: Error, CustomStringConvertible {
    /// What the test waited for, in its own words.
    public let what: String
    /// How long it waited.
    public let timeout: Duration

    public var description: String { "waited \(timeout) for \(what), in vain" }
}

/// Polls `condition` every `interval` until it holds; throws ``WaitTimedOut`` naming `what` if `timeout` passes
/// first. The timeout is a hang detector, not a judgement of speed: generous, so a saturated machine never trips it.
public func waitUntil(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(30), interval: Duration = .milliseconds(2),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut(what: what(), timeout: timeout) }
        try await Task.sleep(for: interval)
    }
}

/// ``waitUntil(_:timeout:interval:_:)`` for a thread that is not a task's: blocks it between polls.
public func blockUntil(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(30), interval: Duration = .milliseconds(2),
    _ condition: () throws -> Bool
) throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut(what: what(), timeout: timeout) }
        Thread.sleep(
            forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
    }
}

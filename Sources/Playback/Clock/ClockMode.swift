/// How a player's time moves.
///
/// - `host`: real time (the monotonic clock). Late frames are dropped.
/// - `manual`: virtual time that moves only when a test calls ``ManualClock/advance(by:)``. The engine waits for
///   decoded frames instead of dropping them, and applies background work (loading, seeks landing) only at those
///   calls, so the same scenario gives the same event trace on every run.
/// - `untimed`: virtual time that jumps to each next frame as soon as it is decoded: for batch work and benchmarks.
public enum ClockMode: Sendable {
    case host
    case manual(ManualClock)
    case untimed

    package var manualClock: ManualClock? {
        if case .manual(let clock) = self { return clock }
        return nil
    }
}

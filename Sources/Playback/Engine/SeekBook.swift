/// The seeks of a player: the "latest wins" machine and, for each seek it handed out, what the driver needs to
/// complete it (its item, target, origin, when it was asked for, and the completion to call).
struct SeekBook: Sendable {
    struct Record: Sendable {
        let item: PlayerItem
        let target: MediaTime
        let exact: Bool
        let origin: SeekOrigin
        let requestedAt: Double
        let completion: (@Sendable (Bool) -> Void)?
    }

    var machine = SeekStateMachine()
    var records: [SeekID: Record] = [:]

    /// The seek in flight, if any.
    var current: SeekID? { machine.currentSeek }
    /// Whether a seek is in flight.
    var isSeeking: Bool { machine.currentSeek != nil }
    /// The target of the seek in flight (what `currentTime()` reports while it is).
    var pendingTarget: MediaTime? { machine.pendingTarget }

    /// Empties the book; returns the completions still owed (each to be called with false).
    mutating func removeAll() -> [@Sendable (Bool) -> Void] {
        defer { records.removeAll() }
        return records.values.compactMap(\.completion)
    }
}

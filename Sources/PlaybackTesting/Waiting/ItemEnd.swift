import Playback

extension PlayerEvent.Kind {
    /// Whether the event ends the current item's playback: it played to its end, failed to, or failed to load.
    public var endsItem: Bool {
        switch self {
        case .didPlayToEnd, .failedToPlayToEnd, .itemStatus(.failed, _, _): true
        default: false
        }
    }

    /// The error of an event that ends the item in failure (``endsItem``); nil for the others.
    public var itemFailure: String? {
        switch self {
        case .failedToPlayToEnd(let error): error
        case .itemStatus(.failed, _, let error): error ?? "failed"
        default: nil
        }
    }
}

/// The event that ends the current item in `events` (see `PlayerEvent.Kind.endsItem`), nil when the stream ends
/// first (the player invalidated); throws ``WaitTimedOut`` saying it waited for `what` to end (see
/// ``withDeadline(_:timeout:_:)``: a hang detector, generous).
public func itemEnd(
    in events: AsyncStream<PlayerEvent>, of what: @autoclosure () -> String, timeout: Duration = .seconds(120)
) async throws -> PlayerEvent? {
    try await firstElement(of: events, "\(what()) to play to its end or fail", timeout: timeout) { $0.kind.endsItem }
}

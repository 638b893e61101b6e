/// The status of one player item, like `AVPlayerItem.status`, as a pure state machine.
///
/// Transitions: `unknown → readyToPlay`, `unknown → failed`, and `readyToPlay → failed` (a fatal error
/// while playing, such as a decoder that cannot continue, fails the item as AVFoundation does).
/// `failed` is final and keeps its first error. Every other input is ignored. An action is returned
/// only when the status changes.
public struct PlayerItemStatusMachine: Sendable {
    /// Something the driver must do after feeding an input to a ``PlayerItemStatusMachine``.
    public enum Action: Equatable, Sendable {
        /// The status changed: tell observers. `errorDescription` is non-nil exactly for `.failed`.
        case emitStatus(PlayerItemStatus, errorDescription: String?)
    }

    private enum State: Sendable, Equatable {
        case unknown
        case readyToPlay
        case failed(String)
    }

    private var state: State = .unknown

    /// An item whose status is `.unknown`.
    public init() {}

    /// The current status.
    public var status: PlayerItemStatus {
        switch state {
        case .unknown: return .unknown
        case .readyToPlay: return .readyToPlay
        case .failed: return .failed
        }
    }

    /// Why the item failed; nil unless `status` is `.failed`.
    public var errorDescription: String? {
        if case .failed(let description) = state { return description }
        return nil
    }

    /// The item finished loading and can be played. Only `.unknown` moves to `.readyToPlay`.
    public mutating func becameReady() -> [Action] {
        guard state == .unknown else { return [] }
        state = .readyToPlay
        return [.emitStatus(.readyToPlay, errorDescription: nil)]
    }

    /// The item failed to load, or hit a fatal playback error. Moves `.unknown` or `.readyToPlay` to
    /// `.failed`; an item that has already failed keeps its first error.
    public mutating func failed(_ errorDescription: String) -> [Action] {
        if case .failed = state { return [] }
        state = .failed(errorDescription)
        return [.emitStatus(.failed, errorDescription: errorDescription)]
    }
}

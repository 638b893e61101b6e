/// Whether playback is progressing, paused, or waiting for conditions that let it progress,
/// like `AVPlayer.TimeControlStatus`. Raw values match AVFoundation's.
public enum TimeControlStatus: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Playback is paused indefinitely: the rate is zero.
    case paused = 0
    /// The rate is nonzero but playback is not progressing; `reasonForWaitingToPlay` says why.
    case waitingToPlayAtSpecifiedRate = 1
    /// Playback is progressing at the current rate and the playback clock runs.
    case playing = 2

    public var description: String {
        switch self {
        case .paused: return "paused"
        case .waitingToPlayAtSpecifiedRate: return "waitingToPlayAtSpecifiedRate"
        case .playing: return "playing"
        }
    }
}

/// Why a player with a nonzero rate is not playing, like `AVPlayer.WaitingReason`.
///
/// The raw values are the stable strings reported to clients ("toMinimizeStalls", ...).
public enum WaitingReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The player waits until the buffer is likely to keep up (or is full) before it starts or resumes.
    case toMinimizeStalls
    /// The player does not know yet whether the buffer will keep up: the current item is still loading,
    /// or no buffer report has arrived since the item changed or a seek started. Also used, with automatic
    /// waiting off, while the buffer is known to be empty and the first data is awaited.
    /// Clients should not show a waiting indicator for this reason alone.
    case evaluatingBufferingRate
    /// There is no current item.
    case noItemToPlay

    public var description: String { rawValue }
}

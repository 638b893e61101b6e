/// Whether a player item can be played, like `AVPlayerItem.Status`. Raw values match AVFoundation's.
public enum PlayerItemStatus: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The item has not finished loading.
    case unknown = 0
    /// The item is loaded and can be played.
    case readyToPlay = 1
    /// The item can no longer be played; its error says why. This status is final.
    case failed = 2

    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .readyToPlay: return "readyToPlay"
        case .failed: return "failed"
        }
    }
}

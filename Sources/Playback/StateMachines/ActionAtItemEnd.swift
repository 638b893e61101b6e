/// What the player does when the current item plays to its end, like `AVPlayer.ActionAtItemEnd`.
/// Raw values match AVFoundation's.
public enum ActionAtItemEnd: Int, Sendable, Hashable, CaseIterable {
    /// Advance to the next item, if there is one; the rate is kept.
    case advance = 0
    /// Pause: the rate becomes zero and the playhead stays at the end.
    case pause = 1
    /// Do nothing: the rate and status are kept, the playhead stays at the end, and a later seek resumes playback.
    case none = 2
}

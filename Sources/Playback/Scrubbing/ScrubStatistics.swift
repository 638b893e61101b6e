/// What one drag of the seek bar did: positions asked, keyframe seeks made and landed, how soon the first picture
/// came, and how long the exact frame took once the finger lifted.
public struct ScrubStatistics: Sendable, Equatable {
    /// `scrub(to:)` calls.
    public var positions = 0
    /// Keyframe seeks started (at most one in flight: the others' positions were replaced by newer ones).
    public var keyframeSeeks = 0
    /// Keyframe seeks that landed (each shows a picture).
    public var framesShown = 0
    /// Seconds from `beginScrubbing()` to the first keyframe seek's landing, when one landed.
    public var firstFrameLatency: Double?
    /// Seconds from `endScrubbing()` to the exact frame's landing.
    public var exactLatency: Double?
    /// Where the exact seek landed (nil when nothing was asked or it did not land).
    public var landedTime: MediaTime?

    public init() {}
}

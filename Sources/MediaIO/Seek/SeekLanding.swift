/// Where a seek landed.
public struct SeekLanding: Sendable {
    /// The frame on screen at the target (exact) or the keyframe (keyframe); nil only for a stream with no frames.
    public var frame: VideoFrame?
    /// The time asked for.
    public var requested: MediaTime
    /// The landing frame's time.
    public var landed: MediaTime? { frame?.time }
    public var statistics: SeekStatistics
}

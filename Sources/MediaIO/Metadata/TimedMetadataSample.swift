/// A timed metadata sample of a track: one ID3 tag and when it applies.
public struct TimedMetadataSample: Sendable, Equatable {
    /// When the sample applies, from the start of the media: the same origin as video frames' times and
    /// `TextTrackReader`'s cues (the container's start subtracted).
    public var time: MediaTime
    /// How long it applies, when its packet says (MPEG-TS does not).
    public var duration: MediaTime?
    /// The packet's bytes as libavformat hands them over: the whole ID3 tag, or, from FFmpeg 5.1's MPEG-TS demuxer,
    /// the tag without its first five bytes (`ID3` and the version; see ``TimedMetadataReader``).
    public var bytes: [UInt8]
    /// The tag's frames, in the tag's order (``ID3Tag``).
    public var frames: [ID3Frame]

    /// A sample with the given fields.
    public init(time: MediaTime, duration: MediaTime? = nil, bytes: [UInt8], frames: [ID3Frame]) {
        self.time = time
        self.duration = duration
        self.bytes = bytes
        self.frames = frames
    }
}

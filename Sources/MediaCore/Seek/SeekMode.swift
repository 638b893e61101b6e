/// How precisely a seek lands.
public enum SeekMode: String, Sendable, Equatable {
    /// On the frame that is on screen at the target: the greatest presentation time not after it (the first frame
    /// for earlier targets, the last for later ones). Decodes forward from the keyframe before it.
    case exact
    /// On the sync (key) frame at or before the target: fast, needs no pre-roll.
    case keyframe
}

/// What a seek cost: how much was read and decoded to land.
public struct SeekStatistics: Sendable, Equatable {
    /// Video packets read from the file to land.
    public var packetsRead = 0
    /// Frames the decoder produced while landing, the landing frame included.
    public var framesDecoded = 0
    /// Decoded frames thrown away because they are before the target.
    public var framesDiscarded = 0
    /// Frames before the target not decoded at all, because no other frame references them.
    public var framesSkipped = 0

    public init() {}
}

import MediaIO

/// One picture of a seek bar: the frame shown for a time, scaled to the thumbnail size.
public struct Thumbnail: Sendable {
    /// The time it was asked for, in seconds from the media's start.
    public let requestedSeconds: Double
    /// The time of the picture it shows: the keyframe nearest the time asked for, or (exact) the frame on screen
    /// then.
    public let time: MediaTime
    /// The picture in YUV 4:2:0 (planar, packed with alignment 1), scaled as FFmpeg's `scale` filter scales:
    /// `ffmpeg -vf scale=W:H:flags=bicubic -pix_fmt yuv420p` gives the same bytes.
    public let image: VideoImage
    /// The same picture in RGBA (`image` converted, not scaled again): for a sprite sheet or a screen.
    public let rgba: VideoImage
    /// The byte position of the keyframe it was decoded from (nil for an exact frame or a container without a
    /// sample index).
    public let keyframeOffset: Int64?
    /// Whether it came from the generator's poster cache (nothing read or decoded).
    public let fromCache: Bool
}

/// How thumbnails are made: their size, keyframes or exact frames, the scaling algorithm.
public struct ThumbnailOptions: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// Exact frames (the frame on screen at each time: a decode from the keyframe before it) instead of the nearest
    /// keyframe alone (the default: one sample read and decoded per thumbnail).
    public var exact: Bool
    /// libswscale's algorithm (FFmpeg's CLI default: bicubic).
    public var algorithm: FilterScaler.Algorithm

    public init(width: Int, height: Int, exact: Bool = false, algorithm: FilterScaler.Algorithm = .bicubic) {
        self.width = width
        self.height = height
        self.exact = exact
        self.algorithm = algorithm
    }
}

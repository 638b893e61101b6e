import MediaCore

/// A decoded, scaled picture and how it was made.
public struct Poster: Sendable {
    /// The picture: packed, 4 bytes a pixel, in the request's format.
    public let image: VideoImage
    /// The size of the picture as the file holds it (after the video's rotation), before scaling.
    public let sourceWidth: Int
    public let sourceHeight: Int
    /// The size the picture was decoded at (smaller than the source when the codec decoded it reduced).
    public let decodedWidth: Int
    public let decodedHeight: Int
    /// For a video: the time of the frame shown.
    public let time: MediaTime
    public let key: PosterKey
    /// Where its time went (for one that came from the cache: only the lookup).
    public let timings: PosterTimings
    /// Whether it came from the memory cache.
    public let fromCache: Bool

    public init(
        image: VideoImage, sourceWidth: Int, sourceHeight: Int, decodedWidth: Int, decodedHeight: Int,
        time: MediaTime, key: PosterKey, timings: PosterTimings, fromCache: Bool
    ) {
        self.image = image
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.decodedWidth = decodedWidth
        self.decodedHeight = decodedHeight
        self.time = time
        self.key = key
        self.timings = timings
        self.fromCache = fromCache
    }

    /// What it costs the memory cache: width x height x 4.
    public var cost: Int { image.width * image.height * 4 }
}

/// The stages of one poster, in seconds.
public struct PosterTimings: Sendable, Equatable {
    /// Waiting for a decode slot.
    public var queueWait = 0.0
    /// Waiting for bytes (the network, the disk).
    public var fetch = 0.0
    /// Opening the container and reading its header, less the waits for bytes.
    public var demux = 0.0
    /// Decoding the picture, less the waits for bytes.
    public var decode = 0.0
    /// Scaling and converting.
    public var scale = 0.0
    /// From the request to the poster.
    public var total = 0.0

    public init() {}

    /// The stages by name, in order.
    public var stages: [(name: String, seconds: Double)] {
        [
            ("queueWait", queueWait), ("fetch", fetch), ("demux", demux), ("decode", decode), ("scale", scale),
            ("total", total),
        ]
    }
}

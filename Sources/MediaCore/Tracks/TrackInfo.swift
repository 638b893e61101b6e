/// What a track (stream) of a media file holds, as the demuxer and codec parameters describe it.
public struct TrackInfo: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case video, audio, subtitle, other
    }

    /// The stream index in the container.
    public var index: Int
    public var kind: Kind
    /// FFmpeg's codec name (`h264`, `aac`, `vp9`, ...); `none` when FFmpeg does not know the codec.
    public var codec: String
    /// Whether this build of FFmpeg has a decoder for the codec.
    public var isDecodable: Bool
    /// Units per second of the track's timestamps.
    public var timeBase: (num: Int32, den: Int32)
    /// The track's duration, when the container says.
    public var duration: MediaTime?
    /// Coded picture size (video).
    public var width: Int?
    public var height: Int?
    /// Degrees the picture must be turned clockwise to be shown upright (0, 90, 180, 270), from the display matrix.
    /// (ffprobe prints the opposite sign: -90 for what is 90 here, as mpv reports it.)
    public var rotation: Int
    /// Whether the picture must be mirrored left to right, before it is turned by ``rotation``, to be shown as the
    /// display matrix says (a matrix with a negative determinant; FFmpeg's autorotation reads it the same way).
    public var mirrored = false
    /// Average frame rate (video), in frames per second.
    public var frameRate: Double?
    /// Native pixel format name (video), e.g. `yuv420p`.
    public var pixelFormat: String?
    /// Sample rate in Hz (audio).
    public var sampleRate: Int?
    /// Channel count (audio).
    public var channels: Int?
    /// Channel layout description (audio), e.g. `stereo`, `5.1`.
    public var channelLayout: String?
    /// The language the container tags the track with (usually ISO 639-2, `eng`, `fra`); nil when untagged or `und`.
    public var language: String?
    /// The track's title (`title` tag), when the container gives one.
    public var title: String?
    /// The stream's bit rate in bits per second, as its container or codec header states it; nil when neither does.
    public var bitRate: Int?
    /// The container marks the track as the default of its kind (Matroska's default flag; MP4's enabled track).
    public var isDefault = false
    /// The container marks the track as forced (subtitles shown even when subtitles are off: signs, foreign lines).
    public var isForced = false
    /// A subtitle track whose cues are pictures (PGS, DVD, DVB subtitles): listed, not rendered.
    public var isBitmapSubtitle = false
    /// A track of `kind` at `index`; the rest as the container describes it.
    public init(
        index: Int, kind: Kind, codec: String, isDecodable: Bool, timeBase: (num: Int32, den: Int32),
        duration: MediaTime? = nil, width: Int? = nil, height: Int? = nil, rotation: Int = 0,
        frameRate: Double? = nil, pixelFormat: String? = nil, sampleRate: Int? = nil, channels: Int? = nil,
        channelLayout: String? = nil
    ) {
        self.index = index
        self.kind = kind
        self.codec = codec
        self.isDecodable = isDecodable
        self.timeBase = timeBase
        self.duration = duration
        self.width = width
        self.height = height
        self.rotation = rotation
        self.frameRate = frameRate
        self.pixelFormat = pixelFormat
        self.sampleRate = sampleRate
        self.channels = channels
        self.channelLayout = channelLayout
    }

    /// The picture size as a viewer shows it: width and height swapped for 90 and 270 degree rotations.
    public var displaySize: (width: Int, height: Int)? {
        guard let width, let height else { return nil }
        return rotation % 180 == 0 ? (width, height) : (height, width)
    }

    public static func == (lhs: TrackInfo, rhs: TrackInfo) -> Bool {
        lhs.index == rhs.index && lhs.kind == rhs.kind && lhs.codec == rhs.codec
            && lhs.timeBase.num == rhs.timeBase.num && lhs.timeBase.den == rhs.timeBase.den
            && lhs.duration == rhs.duration && lhs.width == rhs.width && lhs.height == rhs.height
            && lhs.rotation == rhs.rotation && lhs.mirrored == rhs.mirrored && lhs.sampleRate == rhs.sampleRate
            && lhs.channels == rhs.channels
            && lhs.language == rhs.language && lhs.title == rhs.title && lhs.isDefault == rhs.isDefault
            && lhs.isForced == rhs.isForced && lhs.isBitmapSubtitle == rhs.isBitmapSubtitle
    }
}

/// What a manifest (an HLS master or media playlist, a DASH MPD) offers, in one model for both: the variants a
/// player chooses between (each a ladder step: bitrate, resolution, codecs) and the alternative audio and subtitle
/// renditions they name. Parsed from text by ``HLSPlaylistParser`` and ``DASHManifestParser``; a pure value.
public struct Presentation: Sendable, Equatable {
    public enum Format: String, Sendable, Equatable { case hls, dash }

    public var format: Format
    /// The manifest's URL (every relative URI in it was resolved against it).
    public var url: String
    /// The variants, lowest bandwidth first. A media playlist given alone is one variant without a bandwidth.
    public var variants: [Variant]
    /// Alternative renditions (`#EXT-X-MEDIA`, DASH adaptation sets of audio or text), in manifest order.
    public var renditions: [Rendition]
    /// Whether the manifest says every segment starts with a keyframe (`#EXT-X-INDEPENDENT-SEGMENTS`; always true
    /// for DASH, whose segments start with a stream access point by profile).
    public var independentSegments: Bool

    public init(
        format: Format, url: String, variants: [Variant], renditions: [Rendition] = [],
        independentSegments: Bool = false
    ) {
        self.format = format
        self.url = url
        self.variants = variants
        self.renditions = renditions
        self.independentSegments = independentSegments
    }
}

/// One step of the ladder: what `#EXT-X-STREAM-INF` (HLS) or a video `Representation` (DASH) says.
public struct Variant: Sendable, Equatable {
    /// A stable name: the DASH Representation's id, or the HLS variant's index in its master playlist ("0", "1").
    public var id: String
    /// Peak bits per second (`BANDWIDTH`, `@bandwidth`); 0 when unknown (a media playlist given alone).
    public var bandwidth: Int
    /// Average bits per second (`AVERAGE-BANDWIDTH`), when given.
    public var averageBandwidth: Int?
    public var resolution: Resolution?
    /// The RFC 6381 codec list (`avc1.64001f,mp4a.40.2`), when given.
    public var codecs: String?
    public var frameRate: Double?
    /// The group of alternative audio renditions it plays with (`AUDIO=`), and of subtitles (`SUBTITLES=`).
    public var audioGroup: String?
    public var subtitlesGroup: String?
    /// Where its segments are listed.
    public var media: MediaReference

    public init(
        id: String, bandwidth: Int, averageBandwidth: Int? = nil, resolution: Resolution? = nil,
        codecs: String? = nil, frameRate: Double? = nil, audioGroup: String? = nil, subtitlesGroup: String? = nil,
        media: MediaReference
    ) {
        self.id = id
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.resolution = resolution
        self.codecs = codecs
        self.frameRate = frameRate
        self.audioGroup = audioGroup
        self.subtitlesGroup = subtitlesGroup
        self.media = media
    }
}

/// An alternative rendition a variant names by group: an audio language, a subtitles track.
public struct Rendition: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable { case audio, subtitles, closedCaptions }
    public var kind: Kind
    public var groupID: String
    public var name: String
    public var language: String?
    public var isDefault: Bool
    public var isAutoselect: Bool
    /// Subtitles to show even when the user chose none (`FORCED=YES`: signs, foreign dialogue).
    public var isForced: Bool
    /// Its segments; nil when the variant's own segments carry it (an `#EXT-X-MEDIA` without `URI`).
    public var media: MediaReference?
    /// Peak bits per second, when the manifest says (a DASH Representation's `@bandwidth`; HLS renditions have none).
    public var bandwidth: Int?

    public init(
        kind: Kind, groupID: String, name: String, language: String? = nil, isDefault: Bool = false,
        isAutoselect: Bool = false, isForced: Bool = false, media: MediaReference? = nil, bandwidth: Int? = nil
    ) {
        self.bandwidth = bandwidth
        self.isForced = isForced
        self.kind = kind
        self.groupID = groupID
        self.name = name
        self.language = language
        self.isDefault = isDefault
        self.isAutoselect = isAutoselect
        self.media = media
    }
}

public struct Resolution: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    public var description: String { "\(width)x\(height)" }
}

/// Where a variant's or rendition's segments are: an HLS media playlist to load (and, for live, reload), or
/// segments the manifest lists itself (DASH), or a DASH `SegmentBase` whose segments are in the file's `sidx`.
public enum MediaReference: Sendable, Equatable {
    case playlist(url: String)
    case segments(MediaPlaylist)
    /// One file whose `sidx` box (at `index`) lists its segments; `initialization` holds its header.
    case indexed(url: String, initialization: ByteRange, index: ByteRange)
}

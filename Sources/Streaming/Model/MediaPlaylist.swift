/// The segments of one rendition, in order: an HLS media playlist, or what a DASH Representation lists or implies.
public struct MediaPlaylist: Sendable, Equatable {
    /// The most segments a live list is kept with: a live session's window in all (``StreamSession/liveSegmentLimit``)
    /// and the most a dynamic MPD's `$Number$` template lists at once.
    public static let liveSegmentLimit = 256

    public enum Kind: String, Sendable, Equatable {
        /// Every segment is listed and none will be added (`#EXT-X-PLAYLIST-TYPE:VOD`, or `#EXT-X-ENDLIST`; a
        /// static MPD).
        case vod
        /// Segments are only appended (`#EXT-X-PLAYLIST-TYPE:EVENT` without `#EXT-X-ENDLIST` yet).
        case event
        /// A sliding window: segments are appended and removed from the start.
        case live
    }

    public var kind: Kind
    /// The longest a segment may be, in seconds (`#EXT-X-TARGETDURATION`); live reloads are paced by it.
    public var targetDuration: Double
    /// The sequence number of the first segment listed (`#EXT-X-MEDIA-SEQUENCE`, DASH `startNumber`).
    public var mediaSequence: Int
    public var segments: [Segment]
    /// Whether the list is complete (`#EXT-X-ENDLIST`, a static MPD).
    public var hasEnd: Bool
    /// The discontinuity sequence number of the first segment listed (`#EXT-X-DISCONTINUITY-SEQUENCE`): live
    /// reloads match discontinuities across windows by it.
    public var discontinuitySequence: Int
    /// How often a live list is reloaded, in seconds, when not its target duration (a dynamic MPD with a
    /// `SegmentTimeline`: its `minimumUpdatePeriod`).
    public var reloadInterval: Double?
    /// How far behind a live list's end a play starts by default, in seconds, when its source says (a dynamic MPD's
    /// `suggestedPresentationDelay`); nil: three target durations.
    public var suggestedLiveOffset: Double?

    public init(
        kind: Kind, targetDuration: Double, mediaSequence: Int = 0, segments: [Segment], hasEnd: Bool,
        discontinuitySequence: Int = 0, reloadInterval: Double? = nil, suggestedLiveOffset: Double? = nil
    ) {
        self.reloadInterval = reloadInterval
        self.suggestedLiveOffset = suggestedLiveOffset
        self.kind = kind
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.segments = segments
        self.hasEnd = hasEnd
        self.discontinuitySequence = discontinuitySequence
    }

    /// The sum of the segments' durations.
    public var duration: Double { segments.reduce(0) { $0 + $1.duration } }
}

/// One segment: where its bytes are, how long it plays, and what it needs (an initialization section, a key).
public struct Segment: Sendable, Equatable {
    public var url: String
    /// A range of `url` (`#EXT-X-BYTERANGE`, DASH `mediaRange`), or the whole resource.
    public var byteRange: ByteRange?
    /// Seconds it plays (`#EXTINF`; DASH duration / timescale).
    public var duration: Double
    /// Where it starts on the rendition's timeline, in seconds from the first segment listed (the sum of the
    /// durations before it; for live playlists, from the first segment of the first load).
    public var start: Double
    /// Its media sequence number (`#EXT-X-MEDIA-SEQUENCE` + its index; DASH `$Number$`).
    public var sequence: Int
    /// Whether its timestamps or encoding do not continue the previous segment's (`#EXT-X-DISCONTINUITY`).
    public var discontinuity: Bool
    /// The header it needs before its bytes (`#EXT-X-MAP`, DASH `Initialization`): an fMP4 `moov`.
    public var initialization: InitializationSection?
    /// How its bytes are encrypted (`#EXT-X-KEY:METHOD=AES-128`), or nil for clear.
    public var key: SegmentKey?
    /// The wall-clock date of its first sample, in seconds since 1970 (`#EXT-X-PROGRAM-DATE-TIME` before it, or
    /// the previous segment's date plus its duration when no discontinuity lies between); nil when the playlist
    /// gives none. Live variants' segments are matched by it.
    public var programDate: Double?

    public init(
        url: String, byteRange: ByteRange? = nil, duration: Double, start: Double, sequence: Int,
        discontinuity: Bool = false, initialization: InitializationSection? = nil, key: SegmentKey? = nil,
        programDate: Double? = nil
    ) {
        self.programDate = programDate
        self.url = url
        self.byteRange = byteRange
        self.duration = duration
        self.start = start
        self.sequence = sequence
        self.discontinuity = discontinuity
        self.initialization = initialization
        self.key = key
    }
}

/// Bytes `offset..<offset+length` of a resource.
public struct ByteRange: Sendable, Equatable, Hashable {
    public var offset: Int64
    public var length: Int64
    public init(offset: Int64, length: Int64) {
        self.offset = offset
        self.length = length
    }
    public var end: Int64 { offset + length }
}

/// An initialization section: a URL and, when part of it, a byte range.
public struct InitializationSection: Sendable, Equatable, Hashable {
    public var url: String
    public var byteRange: ByteRange?
    /// The `#EXT-X-KEY:METHOD=AES-128` in effect where `#EXT-X-MAP` declared it: the section is encrypted too (RFC
    /// 8216 4.3.2.4: a key applies to every Media Initialization Section declared after it); nil when clear.
    public var key: SegmentKey?
    public init(url: String, byteRange: ByteRange? = nil, key: SegmentKey? = nil) {
        self.url = url
        self.byteRange = byteRange
        self.key = key
    }
}

/// `#EXT-X-KEY:METHOD=AES-128`: the whole segment is AES-128-CBC encrypted with PKCS7 padding, with the key at
/// `url` (16 bytes) and `iv` (16 bytes), or the segment's sequence number as a big-endian 128-bit IV when none.
public struct SegmentKey: Sendable, Equatable, Hashable {
    public var url: String
    public var iv: [UInt8]?
    public init(url: String, iv: [UInt8]? = nil) {
        self.url = url
        self.iv = iv
    }

    /// The IV for the segment with `sequence`: the given one, or the sequence number big-endian in 16 bytes.
    public func iv(forSequence sequence: Int) -> [UInt8] {
        if let iv { return iv }
        var bytes = [UInt8](repeating: 0, count: 16)
        var value = UInt64(truncatingIfNeeded: sequence)
        for i in stride(from: 15, through: 8, by: -1) {
            bytes[i] = UInt8(value & 0xff)
            value >>= 8
        }
        return bytes
    }
}

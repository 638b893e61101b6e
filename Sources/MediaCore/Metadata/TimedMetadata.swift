/// One frame of an ID3v2 tag (a timed metadata sample's, ID3 carried in MPEG-TS as HLS timed metadata is), as
/// MediaIO's `ID3Tag` reads it.
///
/// Which fields a frame fills depends on its kind: text frames (`T***`) give `text`; `TXXX` its `description` and
/// `text`; URL frames (`W***`) the URL as `text`, `WXXX` with its `description`; `COMM` (and `USLT`) the
/// description and text (the language is not kept); `PRIV` the owner identifier as `description` and the private
/// bytes as `data`; `GEOB` the content description and the object's bytes; `APIC` the picture's description and
/// bytes. Any other frame, and a frame that is compressed, encrypted or whose text encoding is unknown, gives its
/// body as stored in `data`. ID3v2.2's frames keep their three-character ids (`TT2`, `TXX`, `COM`, `PIC`, ...).
/// Several values of one text frame (ID3v2.4 separates them with NUL) are kept, joined by U+0000.
public struct ID3Frame: Sendable, Equatable, Hashable {
    /// The four-character frame id: `TXXX`, `TIT2`, `PRIV`, `WXXX`, `COMM`, `GEOB`, `APIC`, ...
    public var id: String
    /// `TXXX`'s, `WXXX`'s and `COMM`'s description, `PRIV`'s owner identifier, `GEOB`'s content description.
    public var description: String?
    /// A text frame's value (`T***`, `TXXX`), a URL frame's URL (`W***`, `WXXX`), `COMM`'s text.
    public var text: String?
    /// A binary frame's payload (`PRIV`'s private data, `GEOB`'s and `APIC`'s object, an unknown frame's body).
    public var data: [UInt8]?

    public init(id: String, description: String? = nil, text: String? = nil, data: [UInt8]? = nil) {
        self.id = id
        self.description = description
        self.text = text
        self.data = data
    }
}

/// A sample of a timed metadata track: an ID3 tag at a time of the media (the origin of its frames' and cues'
/// times), with its frames.
public struct TimedMetadataSample: Sendable, Equatable, Hashable {
    /// When it applies, from the start of the media.
    public var time: MediaTime
    /// How long it applies, when the container says.
    public var duration: MediaTime?
    /// The packet's bytes as libavformat hands them over: the whole ID3 tag, or, from FFmpeg 5.1's MPEG-TS demuxer,
    /// the tag without its first five bytes (`ID3` and the version; see MediaIO's `TimedMetadataReader`).
    public var bytes: [UInt8]
    /// The frames parsed from `bytes`.
    public var frames: [ID3Frame]

    public init(time: MediaTime, duration: MediaTime? = nil, bytes: [UInt8], frames: [ID3Frame]) {
        self.time = time
        self.duration = duration
        self.bytes = bytes
        self.frames = frames
    }
}

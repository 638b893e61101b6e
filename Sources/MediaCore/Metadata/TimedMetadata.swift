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

/// A sample of timed metadata at a time of the media (the origin of its frames' and cues' times): an ID3 tag (a
/// timed ID3 track of MPEG-TS, or an `emsg` box of the ID3 scheme in fragmented MP4) with its frames, another
/// scheme's event message (``event``, its message in ``bytes``), or the items of a QuickTime timed metadata track
/// (``items``).
public struct TimedMetadataSample: Sendable, Equatable, Hashable {
    /// When it applies, from the start of the media.
    public var time: MediaTime
    /// How long it applies, when the container says.
    public var duration: MediaTime?
    /// The packet's bytes as libavformat hands them over: the whole ID3 tag, or, from FFmpeg 5.1's MPEG-TS demuxer,
    /// the tag without its first five bytes (`ID3` and the version; see MediaIO's `TimedMetadataReader`); an `emsg`
    /// box's message; a `mebx` sample's bytes.
    public var bytes: [UInt8]
    /// The frames parsed from `bytes` (an ID3 tag); empty for a sample that is not one.
    public var frames: [ID3Frame]
    /// The `emsg` box the sample comes from (fragmented MP4), nil for a sample of a track.
    public var event: EventMessage?
    /// The items of a QuickTime timed metadata track's sample (`mebx`); empty for other samples.
    public var items: [TimedMetadataItem]

    public init(
        time: MediaTime, duration: MediaTime? = nil, bytes: [UInt8], frames: [ID3Frame], event: EventMessage? = nil,
        items: [TimedMetadataItem] = []
    ) {
        self.time = time
        self.duration = duration
        self.bytes = bytes
        self.frames = frames
        self.event = event
        self.items = items
    }
}

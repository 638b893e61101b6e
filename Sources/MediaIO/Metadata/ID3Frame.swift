/// One frame of an ID3v2 tag (a timed metadata sample's or a file's), read as ``ID3Tag`` reads it.
///
/// Which fields a frame fills depends on its kind: text frames (`T***`) give `text`; `TXXX` its `description` and
/// `text`; URL frames (`W***`) the URL as `text`, `WXXX` with its `description`; `COMM` (and `USLT`) the
/// description and text (the language is not kept); `PRIV` the owner identifier as `description` and the private
/// bytes as `data`; `GEOB` the content description and the object's bytes; `APIC` the picture's description and
/// bytes. Any other frame, and a frame that is compressed, encrypted or whose text encoding is unknown, gives its
/// body as stored in `data`. ID3v2.2's frames keep their three-character ids (`TT2`, `TXX`, `COM`, `PIC`, ...).
/// Several values of one text frame (ID3v2.4 separates them with NUL) are kept, joined by U+0000.
public struct ID3Frame: Sendable, Equatable {
    /// The frame id as written: four characters (`TXXX`, `TIT2`, `PRIV`, `WXXX`, `COMM`, `GEOB`, `APIC`, ...),
    /// three in ID3v2.2.
    public var id: String
    /// `TXXX`/`WXXX`/`COMM`'s description, `PRIV`'s owner identifier, `GEOB`'s content description, `APIC`'s
    /// picture description.
    public var description: String?
    /// A text frame's value (`T***`, `TXXX`), a URL frame's URL (`W***`, `WXXX`), `COMM`'s text.
    public var text: String?
    /// Binary payload: `PRIV`'s private data, `GEOB`/`APIC`'s object bytes, the body of any other frame.
    public var data: [UInt8]?

    /// A frame with the given fields.
    public init(id: String, description: String? = nil, text: String? = nil, data: [UInt8]? = nil) {
        self.id = id
        self.description = description
        self.text = text
        self.data = data
    }
}

/// An item of a QuickTime timed metadata track (sample entry `mebx`, what AVAssetWriter writes for
/// `AVMetadataItem`s): a key of the track's key table and its value, typed by the item's `data` atom.
public struct TimedMetadataItem: Sendable, Equatable, Hashable {
    /// The key's namespace: `mdta` (reverse-DNS keys such as `com.apple.quicktime.location.ISO6709`), `udta`, ...
    public var keySpace: String
    /// The key, as the track's key table declares it (its bytes as UTF-8; a four-character code for `udta`).
    public var key: String
    /// The `data` atom's well-known type (QuickTime File Format: 0 raw data, 1 UTF-8, 2 UTF-16, 21 signed integer,
    /// 22 unsigned integer, 23 32-bit float, 24 64-bit float, 13 JPEG, 14 PNG, ...).
    public var dataType: Int
    /// The value, decoded as its type says (the bytes as stored for a type this reader does not decode).
    public var value: Value

    /// An item's value.
    public enum Value: Sendable, Equatable, Hashable {
        case string(String)
        case integer(Int64)
        case float(Double)
        case data([UInt8])
    }

    /// `keySpace` and `key` together, as AVFoundation's identifiers: `mdta/com.apple.quicktime.location.ISO6709`.
    public var identifier: String { "\(keySpace)/\(key)" }

    public init(keySpace: String, key: String, dataType: Int, value: Value) {
        self.keySpace = keySpace
        self.key = key
        self.dataType = dataType
        self.value = value
    }
}

/// An event message box (`emsg`, ISO/IEC 23009-1) of a fragmented MP4: an event of a scheme at a time of the
/// media. The message's bytes are the sample's ``TimedMetadataSample/bytes``; for the scheme
/// ``EventMessage/id3Scheme`` they are an ID3 tag, whose frames the sample's ``TimedMetadataSample/frames`` are.
public struct EventMessage: Sendable, Equatable, Hashable {
    /// The scheme of timed ID3 carried in `emsg` (CMAF, HLS fMP4): the message is an ID3v2 tag.
    public static let id3Scheme = "https://aomedia.org/emsg/ID3"

    /// The box's `scheme_id_uri`: which scheme the message follows.
    public var schemeIdURI: String
    /// The box's `value` (the scheme's sub-kind; often empty).
    public var value: String
    /// The box's `id`: the same id in the same scheme is the same event (a repeat).
    public var id: UInt32
    /// The box's version: 0 (time from the segment's earliest presentation time) or 1 (time on the media's timeline).
    public var version: Int

    public init(schemeIdURI: String, value: String, id: UInt32, version: Int) {
        self.schemeIdURI = schemeIdURI
        self.value = value
        self.id = id
        self.version = version
    }
}

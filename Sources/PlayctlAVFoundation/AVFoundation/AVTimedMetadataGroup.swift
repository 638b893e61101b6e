import Playback

/// A collection of metadata items, as `AVMetadataGroup`.
open class AVMetadataGroup: NSObject, @unchecked Sendable {
    /// The items, in their order.
    public let items: [AVMetadataItem]

    init(items: [AVMetadataItem]) {
        self.items = items
        super.init()
    }
}

/// Metadata items that apply over a span of an item's time, as `AVTimedMetadataGroup`: what an
/// ``AVPlayerItemMetadataOutput`` hands its delegate, one group per timed metadata sample (an ID3 tag of an MPEG-TS
/// or HLS stream or of an MP4 `emsg` box, each of its frames an item in ``AVMetadataKeySpace/id3``; a `mebx`
/// sample's items; another `emsg` scheme's message).
open class AVTimedMetadataGroup: AVMetadataGroup, @unchecked Sendable {
    /// When the items apply: from the sample's time, for its duration (invalid when the container does not say).
    public let timeRange: CMTimeRange

    /// A group of `items` over `timeRange`.
    public init(items: [AVMetadataItem], timeRange: CMTimeRange) {
        self.timeRange = timeRange
        super.init(items: items)
    }

    /// The group of a timed metadata sample: an item per ID3 frame, keyed by its frame id (a text frame's value,
    /// and a URL frame's, as a string, a binary frame's as data; a description or owner in `extraAttributes`); an
    /// item per `mebx` item, in its key space (`mdta/…`); for an `emsg` box of a scheme other than ID3's, one item
    /// in ``AVMetadataKeySpace/playctlEventMessage`` keyed by the scheme, its message as data, its value as `info`.
    convenience init(_ sample: TimedMetadataSample) {
        let time = CMTime(sample.time)
        let duration = sample.duration.map { CMTime($0) } ?? .invalid
        var items = sample.frames.map { AVMetadataItem(id3: $0, time: time, duration: duration) }
        items += sample.items.map { AVMetadataItem(boxed: $0, time: time, duration: duration) }
        if let event = sample.event, event.schemeIdURI != EventMessage.id3Scheme {
            items.append(
                AVMetadataItem(
                    keySpace: .playctlEventMessage, key: event.schemeIdURI, commonKey: nil, stringValue: nil,
                    dataValue: Data(sample.bytes), dataType: "com.apple.metadata.datatype.raw-data", time: time,
                    duration: duration, info: event.value))
        }
        self.init(items: items, timeRange: CMTimeRange(start: time, duration: duration))
    }
}

extension AVMetadataKeySpace {
    /// QuickTime metadata keys (`mdta`): the keys of a timed metadata track (`mebx`) of an MP4 or QuickTime file.
    public static let quickTimeMetadata = AVMetadataKeySpace(rawValue: "mdta")
    /// playctl's: the event messages (`emsg`) of a fragmented MP4 of schemes other than ID3's; the key is the
    /// scheme (`scheme_id_uri`).
    public static let playctlEventMessage = AVMetadataKeySpace(rawValue: "playctl.emsg")
}

extension AVMetadataItem {
    /// The item of a `mebx` sample's item: a string as a string; a number as its text (``numberValue`` reads it);
    /// bytes as data.
    convenience init(boxed item: TimedMetadataItem, time: CMTime, duration: CMTime) {
        var text: String?
        var data: Data?
        let type: String
        switch item.value {
        case .string(let value):
            (text, type) = (value, AVMetadataItem.utf8Type)
        case .integer(let value):
            (text, type) = (String(value), "com.apple.metadata.datatype.int64")
        case .float(let value):
            (text, type) = (String(value), "com.apple.metadata.datatype.float64")
        case .data(let bytes):
            (data, type) = (Data(bytes), "com.apple.metadata.datatype.raw-data")
        }
        self.init(
            keySpace: AVMetadataKeySpace(rawValue: item.keySpace), key: item.key, commonKey: nil, stringValue: text,
            dataValue: data, dataType: type, time: time, duration: duration)
    }

    /// The item of an ID3 frame of a timed metadata sample at `time`, lasting `duration`.
    convenience init(id3 frame: ID3Frame, time: CMTime, duration: CMTime) {
        let data: Data? = frame.text == nil ? frame.data.map { Data($0) } : nil
        let type = frame.text == nil ? "com.apple.metadata.datatype.raw-data" : AVMetadataItem.utf8Type
        let common: AVMetadataKey? = frame.id == "TIT2" ? .commonKeyTitle : nil
        self.init(
            keySpace: .id3, key: frame.id, commonKey: common, stringValue: frame.text, dataValue: data,
            dataType: type, time: time, duration: duration, info: frame.description)
    }
}

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
/// or HLS stream, each of its frames an item in ``AVMetadataKeySpace/id3``).
open class AVTimedMetadataGroup: AVMetadataGroup, @unchecked Sendable {
    /// When the items apply: from the sample's time, for its duration (invalid when the container does not say).
    public let timeRange: CMTimeRange

    /// A group of `items` over `timeRange`.
    public init(items: [AVMetadataItem], timeRange: CMTimeRange) {
        self.timeRange = timeRange
        super.init(items: items)
    }

    /// The group of a timed metadata sample: an item per ID3 frame, keyed by its frame id; a text frame's value
    /// (and a URL frame's) as a string, a binary frame's as data; a description or owner in `extraAttributes`.
    convenience init(_ sample: TimedMetadataSample) {
        let time = CMTime(sample.time)
        let duration = sample.duration.map { CMTime($0) } ?? .invalid
        let items = sample.frames.map { AVMetadataItem(id3: $0, time: time, duration: duration) }
        self.init(items: items, timeRange: CMTimeRange(start: time, duration: duration))
    }
}

extension AVMetadataItem {
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

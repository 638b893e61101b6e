/// A property of an asset that loads asynchronously, without its value type, as AVFoundation's
/// `AVPartialAsyncProperty`.
public class AVPartialAsyncProperty<Root>: @unchecked Sendable, CustomStringConvertible {
    /// The property's key (`"duration"`), as string-keyed loading names it.
    public let name: String

    init(name: String) { self.name = name }

    /// The key.
    public var description: String { name }
}

/// A property of an asset that loads asynchronously, as AVFoundation's `AVAsyncProperty`: pass it to
/// `load(_:)` (`try await asset.load(.duration)`).
public final class AVAsyncProperty<Root, Value>: AVPartialAsyncProperty<Root>, @unchecked Sendable {
    /// The value read from what it is a property of: an asset's probe, or a track.
    private let read: @Sendable (Any) -> Value?

    /// A property of an asset, read from its probe.
    init(name: String, value: @escaping @Sendable (AVAsset.Probe) -> Value) {
        read = { ($0 as? AVAsset.Probe).map(value) }
        super.init(name: name)
    }

    /// A property of a track, named `name`.
    init(trackProperty name: String, _ track: @escaping @Sendable (AVAssetTrack) -> Value) {
        read = { ($0 as? AVAssetTrack).map(track) }
        super.init(name: name)
    }

    /// The value from `source` (an asset's probe or a track).
    /// - Throws: an `NSError` when the property is not one of `source`.
    func value(_ source: Any) throws -> Value {
        guard let value = read(source) else {
            throw AVPlayerItem.nsError("\(name) is not a property of \(type(of: source))")
        }
        return value
    }
}

extension AVPartialAsyncProperty where Root: AVAsset {
    /// The asset's duration.
    public static var duration: AVAsyncProperty<Root, CMTime> { AVAsyncProperty(name: "duration") { $0.duration } }
    /// Whether the asset has a track the engine can decode.
    public static var isPlayable: AVAsyncProperty<Root, Bool> { AVAsyncProperty(name: "playable") { $0.isPlayable } }
    /// The asset's tracks.
    public static var tracks: AVAsyncProperty<Root, [AVAssetTrack]> { AVAsyncProperty(name: "tracks") { $0.tracks } }
    /// The container's common metadata (title, artist, album, creation date, artwork).
    public static var commonMetadata: AVAsyncProperty<Root, [AVMetadataItem]> {
        AVAsyncProperty(name: "commonMetadata") { AVMetadataItem.common($0.metadata) }
    }
    /// Every tag of the container, and its artwork.
    public static var metadata: AVAsyncProperty<Root, [AVMetadataItem]> {
        AVAsyncProperty(name: "metadata") { AVMetadataItem.all($0.metadata) }
    }
    /// The preferred size and rate: natural (1).
    public static var preferredRate: AVAsyncProperty<Root, Float> { AVAsyncProperty(name: "preferredRate") { _ in 1 } }
}

/// Where a string-keyed property's loading stands, as `AVKeyValueStatus`.
public enum AVKeyValueStatus: Int, Sendable, Hashable {
    /// Not asked for yet.
    case unknown = 0
    /// Loading.
    case loading = 1
    /// Loaded: reading it does not wait.
    case loaded = 2
    /// The load failed (see the error given).
    case failed = 3
    /// The load was cancelled.
    case cancelled = 4
}

/// Where `statusOfValue(forKey:error:)` writes an error (Linux has no autoreleasing pointers: `&error` on an
/// `NSError?` variable passes one, as on Apple platforms).
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

/// The kind of media of a track, as `AVMediaType`.
public struct AVMediaType: RawRepresentable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Video.
    public static let video = AVMediaType(rawValue: "vide")
    /// Audio.
    public static let audio = AVMediaType(rawValue: "soun")
    /// Subtitles.
    public static let subtitle = AVMediaType(rawValue: "sbtl")
    /// Anything else (metadata, data).
    public static let metadata = AVMediaType(rawValue: "meta")
}

/// One track of an asset, as `AVAssetTrack` (what the engine's probe reports).
public final class AVAssetTrack: NSObject, @unchecked Sendable {
    /// The track's number in its container.
    public let trackID: Int32
    /// Video, audio, subtitles or other.
    public let mediaType: AVMediaType
    /// The coded picture size (video; zero otherwise).
    public let naturalSize: CGSize
    /// Frames per second (video; 0 otherwise).
    public let nominalFrameRate: Float
    /// The track's span: from zero for its duration (invalid when the container does not say).
    public let timeRange: CMTimeRange
    /// Whether the engine can decode it.
    public let isPlayable: Bool
    /// The track's bit rate in bits per second, as its container states it (0 when it does not).
    public let estimatedDataRate: Float
    /// How far a video's picture is turned clockwise to be shown (its container's display matrix), in degrees.
    let rotation: Int

    init(
        trackID: Int32, mediaType: AVMediaType, naturalSize: CGSize, nominalFrameRate: Float, timeRange: CMTimeRange,
        isPlayable: Bool, estimatedDataRate: Float = 0, rotation: Int = 0
    ) {
        self.estimatedDataRate = estimatedDataRate
        self.rotation = rotation
        self.trackID = trackID
        self.mediaType = mediaType
        self.naturalSize = naturalSize
        self.nominalFrameRate = nominalFrameRate
        self.timeRange = timeRange
        self.isPlayable = isPlayable
    }
}

extension AVPartialAsyncProperty where Root == AVAssetTrack {
    /// The track's bit rate (``AVAssetTrack/estimatedDataRate``).
    public static var estimatedDataRate: AVAsyncProperty<Root, Float> {
        AVAsyncProperty(trackProperty: "estimatedDataRate") { (track: AVAssetTrack) in track.estimatedDataRate }
    }
    /// The track's kind of media.
    public static var mediaType: AVAsyncProperty<Root, AVMediaType> {
        AVAsyncProperty(trackProperty: "mediaType") { (track: AVAssetTrack) in track.mediaType }
    }
    /// The coded picture size.
    public static var naturalSize: AVAsyncProperty<Root, CGSize> {
        AVAsyncProperty(trackProperty: "naturalSize") { (track: AVAssetTrack) in track.naturalSize }
    }
    /// Frames per second.
    public static var nominalFrameRate: AVAsyncProperty<Root, Float> {
        AVAsyncProperty(trackProperty: "nominalFrameRate") { (track: AVAssetTrack) in track.nominalFrameRate }
    }
    /// The track's span.
    public static var timeRange: AVAsyncProperty<Root, CMTimeRange> {
        AVAsyncProperty(trackProperty: "timeRange") { (track: AVAssetTrack) in track.timeRange }
    }
    /// Whether the engine can decode it.
    public static var isPlayable: AVAsyncProperty<Root, Bool> {
        AVAsyncProperty(trackProperty: "isPlayable") { (track: AVAssetTrack) in track.isPlayable }
    }
}

extension AVAssetTrack {
    /// The value of `property`: a track's properties are known once its asset's tracks are (no wait).
    public func load<T>(_ property: AVAsyncProperty<AVAssetTrack, T>) async throws -> T {
        try property.value(self)
    }
}

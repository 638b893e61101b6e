// swift-format-ignore-file: AlwaysUseLowerCamelCase
// AVURLAsset's option keys keep AVFoundation's spelling.

/// An asset at a URL, as `AVURLAsset`.
open class AVURLAsset: AVAsset, @unchecked Sendable {
    /// The URL.
    public let url: URL
    /// The options given (accepted; see the keys).
    public let options: [String: Any]

    /// An asset for `url`. Options are accepted and kept: the engine always reads precise durations and timings,
    /// and fetches http(s) media through its own loader.
    public init(url: URL, options: [String: Any]? = nil) {
        self.url = url
        self.options = options ?? [:]
        super.init(engineURL: AVAsset.engineURL(of: url))
    }

    /// A wrapper of an item the engine made.
    override init(engineURL: String) {
        self.url = engineURL.contains("://") ? URL(string: engineURL)! : URL(fileURLWithPath: engineURL)
        self.options = [:]
        super.init(engineURL: engineURL)
    }

    /// Accepted (durations and timings are always precise).
    public static let AVURLAssetPreferPreciseDurationAndTimingKey = "AVURLAssetPreferPreciseDurationAndTimingKey"
    /// Accepted (requests carry no extra headers).
    public static let AVURLAssetHTTPHeaderFieldsKey = "AVURLAssetHTTPHeaderFieldsKey"
    /// Accepted (the loader's own policy applies).
    public static let AVURLAssetAllowsCellularAccessKey = "AVURLAssetAllowsCellularAccessKey"
}

/// `AVURLAsset.AVURLAssetPreferPreciseDurationAndTimingKey`.
public let AVURLAssetPreferPreciseDurationAndTimingKey = AVURLAsset.AVURLAssetPreferPreciseDurationAndTimingKey
/// `AVURLAsset.AVURLAssetHTTPHeaderFieldsKey`.
public let AVURLAssetHTTPHeaderFieldsKey = AVURLAsset.AVURLAssetHTTPHeaderFieldsKey

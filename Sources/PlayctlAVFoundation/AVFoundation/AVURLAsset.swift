// swift-format-ignore-file: AlwaysUseLowerCamelCase
// AVURLAsset's option keys keep AVFoundation's spelling.

import MediaCore
import Playback

/// An asset at a URL, as `AVURLAsset`.
open class AVURLAsset: AVAsset, @unchecked Sendable {
    /// The URL.
    public let url: URL
    /// The options given (accepted; see the keys).
    public let options: [String: Any]
    /// Loads the asset's bytes through an app's delegate when its URL has a custom scheme (not `file`, `http` or
    /// `https`): set the delegate before the asset's item plays or its properties load.
    public let resourceLoader = AVAssetResourceLoader()

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

    /// With a custom scheme: an item whose reads are answered by ``resourceLoader``'s delegate.
    override func makeEngineItem() -> PlayerItem {
        guard AVAssetResourceLoader.handlesScheme(of: url) else { return super.makeEngineItem() }
        let (loader, url, name) = (resourceLoader, url, engineURL)
        return PlayerItem(url: engineURL) { _ in ResourceLoaderByteSource(loader: loader, url: url, name: name) }
    }

    override func makeProbeSource() -> (any ByteSource)? {
        guard AVAssetResourceLoader.handlesScheme(of: url) else { return super.makeProbeSource() }
        return ResourceLoaderByteSource(loader: resourceLoader, url: url, name: engineURL)
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
/// `AVURLAsset.AVURLAssetAllowsCellularAccessKey`.
public let AVURLAssetAllowsCellularAccessKey = AVURLAsset.AVURLAssetAllowsCellularAccessKey

import Foundation
import Streaming

/// One variant of an adaptive presentation (an HLS `EXT-X-STREAM-INF`, a DASH Representation), as
/// `AVAssetVariant`: what the variant switch metric events name. Made from the engine's ``Variant``
/// (``playctlVariant``), which carries more (its id, its media playlist).
public final class AVAssetVariant: NSObject, Sendable {
    /// The peak bit rate in bits per second (`BANDWIDTH`); nil when the manifest gives none.
    public let peakBitRate: Double?
    /// The average bit rate in bits per second (`AVERAGE-BANDWIDTH`), when given.
    public let averageBitRate: Double?
    /// The video's attributes, when the manifest gives a resolution.
    public let videoAttributes: VideoAttributes?
    /// The engine's variant.
    public let playctlVariant: Variant

    /// A variant's video, as `AVAssetVariant.VideoAttributes`.
    public struct VideoAttributes: Sendable, Hashable {
        /// The pictures' size (`RESOLUTION`).
        public let presentationSize: CGSize
        /// The frame rate (`FRAME-RATE`), when given.
        public let nominalFrameRate: Double?
    }

    init(_ variant: Variant) {
        playctlVariant = variant
        peakBitRate = variant.bandwidth > 0 ? Double(variant.bandwidth) : nil
        averageBitRate = variant.averageBandwidth.map(Double.init)
        videoAttributes = variant.resolution.map {
            VideoAttributes(
                presentationSize: CGSize(width: Double($0.width), height: Double($0.height)),
                nominalFrameRate: variant.frameRate)
        }
        super.init()
    }

    /// The RFC 6381 codec list (`CODECS`, `avc1.64001f,mp4a.40.2`), when given (`AVAssetVariant` has the codec
    /// types in its attributes instead).
    public var codecs: String? { playctlVariant.codecs }

    /// The same variant (by its id and attributes).
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? AVAssetVariant)?.playctlVariant == playctlVariant
    }

    public override var hash: Int { playctlVariant.id.hashValue }

    public override var description: String {
        "AVAssetVariant(\(playctlVariant.id), \(playctlVariant.bandwidth) bit/s"
            + (playctlVariant.resolution.map { ", \($0.description)" } ?? "") + ")"
    }
}

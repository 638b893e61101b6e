/// One progressive copy of a clip: a whole file (an MP4 read from its start) at one bit rate, as short-video
/// services serve each clip once per bit rate. A player plays one of them, chosen before its first byte
/// (``ProgressiveRenditionChoice``).
public struct ProgressiveRendition: Sendable, Hashable, Codable {
    /// Where the file is.
    public var url: String
    /// Its bit rate, in bits per second (audio and video together: what the link must carry to play it).
    public var bitrate: Int
    /// Its picture size, when known.
    public var width: Int?
    public var height: Int?
    /// The file's length in bytes, when known.
    public var byteSize: Int64?

    public init(url: String, bitrate: Int, width: Int? = nil, height: Int? = nil, byteSize: Int64? = nil) {
        self.url = url
        self.bitrate = bitrate
        self.width = width
        self.height = height
        self.byteSize = byteSize
    }

    /// Its picture size, when both sides are known.
    public var resolution: Resolution? {
        guard let width, let height else { return nil }
        return Resolution(width: width, height: height)
    }
}

/// Which ``ProgressiveRendition`` an item plays and why, decided once, before its first byte, by the ABR machine's
/// first decision (``ABRMachine``, reason ``ABRDecision/Reason/initial``): the highest rendition whose bit rate is at
/// most 0.7 x the estimate among those the limits allow, else the lowest they allow. A value: the same renditions,
/// limits and estimate give the same choice.
public struct ProgressiveRenditionChoice: Sendable, Equatable {
    /// Where the estimate the choice was made from came from.
    public enum EstimateSource: String, Sendable, Equatable {
        /// The shared estimate (``SharedBandwidthEstimate``): what earlier plays measured, or a rate given to start
        /// from (``SharedBandwidthEstimate/known(_:)``).
        case shared
        /// None was measured: the ABR configuration's default (500 kbit/s).
        case defaultEstimate = "default"
    }

    /// The rendition to play.
    public var rendition: ProgressiveRendition
    /// Its place in the renditions as given.
    public var index: Int
    /// The ABR machine's reason (`.initial`, or `.pinned` when the limits pin one).
    public var reason: ABRDecision.Reason
    /// The estimate the choice was made from (bits per second), and where it came from.
    public var estimate: Double
    public var estimateSource: EstimateSource
    /// The peak bit rate the limits allowed then (nil: none).
    public var peakBitRate: Double?

    public init(
        rendition: ProgressiveRendition, index: Int, reason: ABRDecision.Reason, estimate: Double,
        estimateSource: EstimateSource, peakBitRate: Double? = nil
    ) {
        self.rendition = rendition
        self.index = index
        self.reason = reason
        self.estimate = estimate
        self.estimateSource = estimateSource
        self.peakBitRate = peakBitRate
    }

    /// Chooses among `renditions` with the ABR machine's first decision, from `estimate` (bits per second; nil, 0
    /// or not finite: the configuration's default), keeping to `limits` (a peak bit rate, a maximum resolution,
    /// the expensive-network cap). Nil when `renditions` is empty.
    public static func choose(
        from renditions: [ProgressiveRendition], limits: ABRLimits = .none, estimate: Double?,
        configuration: ABRConfiguration = .standard
    ) -> ProgressiveRenditionChoice? {
        let variants = renditions.enumerated().map { index, rendition in
            // A progressive file is one whole resource; the machine never reads `media`.
            Variant(
                id: String(index), bandwidth: max(rendition.bitrate, 0), resolution: rendition.resolution,
                media: .playlist(url: rendition.url))
        }
        guard
            var machine = ABRMachine(
                variants: variants, limits: limits, startEstimate: estimate, configuration: configuration)
        else { return nil }
        let decision = machine.nextSegment(duration: 0)
        guard let index = Int(decision.variant.id), renditions.indices.contains(index) else { return nil }
        return ProgressiveRenditionChoice(
            rendition: renditions[index], index: index, reason: decision.reason, estimate: machine.estimate,
            estimateSource: machine.startEstimate == nil ? .defaultEstimate : .shared,
            peakBitRate: limits.effectivePeakBitRate)
    }
}

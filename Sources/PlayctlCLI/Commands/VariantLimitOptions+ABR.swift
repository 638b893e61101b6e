import Streaming

extension VariantLimitOptions {
    /// The limits as the ABR machine takes them (0 and nil: no limit).
    var abrLimits: ABRLimits {
        ABRLimits(
            preferredPeakBitRate: Double(peakBitRate ?? 0),
            preferredMaximumResolution: maximumResolution.map { Resolution(width: $0.width, height: $0.height) })
    }
}

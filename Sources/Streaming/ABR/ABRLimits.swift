/// What the app allows the rendition choice to pick, in AVPlayer's vocabulary (`preferredPeakBitRate`,
/// `preferredPeakBitRateForExpensiveNetworks`, `preferredMaximumResolution`), plus a pin to one variant. A value;
/// ``ABRMachine`` applies it to every decision.
public struct ABRLimits: Sendable, Equatable {
    /// The highest peak bandwidth (bits per second) a chosen variant may have; 0 means no limit (AVPlayer's
    /// `preferredPeakBitRate` semantics).
    public var preferredPeakBitRate: Double
    /// The same limit while the network is expensive (cellular, a personal hotspot); 0 means no limit. AVPlayer's
    /// `preferredPeakBitRateForExpensiveNetworks`.
    public var preferredPeakBitRateForExpensiveNetworks: Double
    /// Whether the path the bytes come over is expensive now (the driver sets it when the path changes), which
    /// applies ``preferredPeakBitRateForExpensiveNetworks``.
    public var isNetworkExpensive: Bool
    /// The largest resolution a chosen variant may have (both sides at most these); nil means no limit. A variant
    /// whose resolution is unknown is never excluded by it.
    public var preferredMaximumResolution: Resolution?
    /// A variant's ``Variant/id`` to play and nothing else (a play pinned to one rendition): it wins over every other
    /// limit and over the bandwidth rules. A pin naming no variant of the ladder is ignored.
    public var pinnedVariantID: String?

    /// No limits: every variant is eligible.
    public static let none = ABRLimits()

    public init(
        preferredPeakBitRate: Double = 0, preferredPeakBitRateForExpensiveNetworks: Double = 0,
        isNetworkExpensive: Bool = false, preferredMaximumResolution: Resolution? = nil, pinnedVariantID: String? = nil
    ) {
        self.preferredPeakBitRate = preferredPeakBitRate
        self.preferredPeakBitRateForExpensiveNetworks = preferredPeakBitRateForExpensiveNetworks
        self.isNetworkExpensive = isNetworkExpensive
        self.preferredMaximumResolution = preferredMaximumResolution
        self.pinnedVariantID = pinnedVariantID
    }

    /// The peak bit rate in force: the lower of the limits that apply now and are set; nil when none is.
    public var effectivePeakBitRate: Double? {
        var limits: [Double] = []
        if preferredPeakBitRate.isFinite, preferredPeakBitRate > 0 { limits.append(preferredPeakBitRate) }
        let expensive = preferredPeakBitRateForExpensiveNetworks
        if isNetworkExpensive, expensive.isFinite, expensive > 0 { limits.append(expensive) }
        return limits.min()
    }

    /// The variants these limits allow, lowest bandwidth first.
    ///
    /// - A pinned variant present in `variants` is the only one eligible, whatever the other limits say.
    /// - Otherwise a variant is eligible when its bandwidth is at most ``effectivePeakBitRate`` (a variant of
    ///   unknown bandwidth, 0, always is) and its resolution fits ``preferredMaximumResolution``.
    /// - When no variant fits, the lowest-bandwidth variant alone is eligible: a limit never stops playback, it
    ///   only holds it at the lowest step, as AVPlayer plays the lowest variant when every variant exceeds
    ///   `preferredPeakBitRate`.
    ///
    /// Empty only when `variants` is.
    public func eligible(_ variants: [Variant]) -> [Variant] {
        let ladder = ABRLadder.sorted(variants)
        if let pinned = pinnedVariantID, let variant = ladder.first(where: { $0.id == pinned }) { return [variant] }
        let fitting = ladder.filter(allows)
        if fitting.isEmpty, let lowest = ladder.first { return [lowest] }
        return fitting
    }

    /// Whether the bit-rate and resolution limits allow `variant` (the pin aside).
    public func allows(_ variant: Variant) -> Bool {
        if let peak = effectivePeakBitRate, variant.bandwidth > 0, Double(variant.bandwidth) > peak { return false }
        if let maximum = preferredMaximumResolution, let resolution = variant.resolution {
            if resolution.width > maximum.width || resolution.height > maximum.height { return false }
        }
        return true
    }
}

/// Ladder order: ascending bandwidth, manifest order among equals (a stable sort).
enum ABRLadder {
    static func sorted(_ variants: [Variant]) -> [Variant] {
        variants.enumerated().sorted { lhs, rhs in
            lhs.element.bandwidth != rhs.element.bandwidth
                ? lhs.element.bandwidth < rhs.element.bandwidth : lhs.offset < rhs.offset
        }.map(\.element)
    }
}

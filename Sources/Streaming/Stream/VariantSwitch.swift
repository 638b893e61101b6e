/// A change of the variant segments come from: which, where and why (an ABR decision, a limit, a seek).
public struct VariantSwitch: Sendable, Equatable {
    /// The variant before (nil for the first choice of a play).
    public var from: Variant?
    public var to: Variant
    /// The first segment from `to`: its index in the rendition's list, and where it starts in seconds.
    public var segmentIndex: Int
    public var seconds: Double
    /// Why, in a word: `initial`, `bandwidthUp`, `bandwidthDown`, `bufferLow`, `downloadAbandoned`, `stall`, `limits`, `pinned`.
    public var reason: String
    /// The bandwidth estimate it was decided with, in bits per second (nil before any download).
    public var estimate: Double?

    public init(
        from: Variant?, to: Variant, segmentIndex: Int, seconds: Double, reason: String, estimate: Double?
    ) {
        self.from = from
        self.to = to
        self.segmentIndex = segmentIndex
        self.seconds = seconds
        self.reason = reason
        self.estimate = estimate
    }
}

/// The primary reader of a ``StreamSession`` entered the first segment of a variant it was not reading: where a
/// switch (or the first choice) takes effect.
public struct VariantRead: Sendable, Equatable {
    /// The segment's index in the rendition's list, and where it starts in seconds.
    public var segmentIndex: Int
    public var seconds: Double
    /// The variant it comes from.
    public var variant: Variant

    public init(segmentIndex: Int, seconds: Double, variant: Variant) {
        self.segmentIndex = segmentIndex
        self.seconds = seconds
        self.variant = variant
    }
}

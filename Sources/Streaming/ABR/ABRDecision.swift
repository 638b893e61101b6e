/// Which variant the next segment comes from, the one before, and why.
public struct ABRDecision: Sendable, Equatable {
    /// Why the machine chose ``ABRDecision/variant``.
    public enum Reason: String, Sendable, Equatable {
        /// The first choice of a play, from the start estimate.
        case initial
        /// The estimate allows a higher variant and the buffer is deep enough to try it.
        case bandwidthUp
        /// The estimate no longer carries the current variant and the buffer is not deep enough to keep it.
        case bandwidthDown
        /// Emergency: the current variant's next segment would arrive after the buffer runs dry.
        case bufferLow
        /// A segment downloading too slowly for the buffer was given up for a lower variant's (hls.js's abandon
        /// rule): the same segment comes from the new variant.
        case downloadAbandoned
        /// Playback stalled: one step down at least.
        case stall
        /// The limits exclude the current variant (they changed, or the network became expensive): the highest
        /// eligible variant at or below it.
        case limits
        /// A pinned variant (``ABRLimits/pinnedVariantID``).
        case pinned
        /// The same variant as the previous segment.
        case unchanged
    }

    /// The variant the next segment comes from.
    public var variant: Variant
    /// The variant of the previous decision; nil for the first.
    public var previous: Variant?
    public var reason: Reason

    public init(variant: Variant, previous: Variant?, reason: Reason) {
        self.variant = variant
        self.previous = previous
        self.reason = reason
    }

    /// Whether the decision changes the variant (by ``Variant/id``; the first decision does not count as a switch).
    public var isSwitch: Bool { previous.map { $0.id != variant.id } ?? false }
}

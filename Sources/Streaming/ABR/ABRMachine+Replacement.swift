/// Fast switching (dash.js `fastSwitchEnabled`): a switch up with a deep buffer of a lower variant replaces that
/// buffer past a short stretch ahead of the playhead, instead of playing it out first. Without it, a link that comes
/// back after a dip plays up to a whole forward buffer (30 s) of the dip's quality before the better one.
extension ABRMachine {
    /// What a switch up with replacement decided: the switch, and how many seconds of the buffer ahead to keep.
    public struct Replacement: Sendable, Equatable {
        /// The switch up (reason `.bandwidthUp`): the variant of the first segment replaced and of those after it.
        public var decision: ABRDecision
        /// Seconds of media to keep from the start of the buffer (as ``bufferLevel(_:)`` reports it): the segments
        /// that end past it at a lower variant than the decision's are fetched again from it.
        public var retained: Double
    }

    /// With the buffer as last reported: when ``nextSegment(duration:)`` would switch up now (the up rule, not the
    /// start's correction) and more than the retained seconds plus one segment are buffered, makes that switch (it
    /// counts, and the next decisions start from the new variant) and answers how much buffer to keep. The retained
    /// seconds are the larger of `retainedSegmentsOnSwitchUp` (3.5) segment durations (dash.js replaces from 1.5
    /// segment durations past the playhead; see the constant) and the time the new variant's segment takes at the estimate, at its
    /// peak bit rate, over `replacementSafetyFactor` (0.5, BOLA's rebuffer safety factor): the first replaced
    /// segment arrives with half the kept buffer left, and as the new variant takes at most `stayFraction` of the
    /// estimate, each one after it adds more media than its download plays out. Nil, and nothing changes, otherwise
    /// (or with `retainedSegmentsOnSwitchUp` nil); the driver then asks ``nextSegment(duration:)`` as always.
    public mutating func switchUpReplacingBuffer(duration: Double) -> Replacement? {
        guard let segments = configuration.retainedSegmentsOnSwitchUp, segments.isFinite, segments >= 0,
            duration.isFinite, duration > 0, current != nil
        else { return nil }
        var probe = self
        let decision = probe.nextSegment(duration: duration)
        guard decision.reason == .bandwidthUp, bufferedDuration >= configuration.minBufferForQualityIncrease
        else { return nil }
        let download = Double(decision.variant.bandwidth) * duration / estimate
        let safety = configuration.replacementSafetyFactor
        let retained = max(segments * duration, safety > 0 && safety <= 1 ? download / safety : download)
        guard bufferedDuration > retained + duration else { return nil }
        self = probe
        return Replacement(decision: decision, retained: retained)
    }
}

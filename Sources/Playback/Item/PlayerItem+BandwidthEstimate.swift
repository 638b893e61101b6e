import Streaming

extension PlayerItem {
    /// Where an HLS or DASH item's variant choice starts from and where its measurements go: the process-wide
    /// ``SharedBandwidthEstimate/shared`` by default, so a new play starts at the rate the link has shown (Media3
    /// shares one `DefaultBandwidthMeter` between an app's players the same way). Give an item an estimate of its
    /// own to start it from a known rate, apart from other plays (a test; one estimate per network interface).
    /// Applied when the item loads.
    public var bandwidthEstimate: SharedBandwidthEstimate {
        get { state.withLock { $0.bandwidthEstimate } }
        set { state.withLock { $0.bandwidthEstimate = newValue } }
    }
}

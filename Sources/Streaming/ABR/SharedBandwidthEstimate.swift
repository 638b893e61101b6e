import Locking

/// The last throughput estimate of any play in the process, so that a new play (a feed's next item) starts at the
/// rate the link has shown instead of a default: a driver records its ``ABRMachine/measuredEstimate`` as segments
/// arrive and gives ``current`` as the next machine's start estimate. Thread-safe (one lock around one optional number);
/// the machines themselves stay values.
public final class SharedBandwidthEstimate: Sendable {
    /// The process-wide estimate.
    public static let shared = SharedBandwidthEstimate()

    private let value = Locked<Double?>(nil)

    /// An estimate of its own (tests, or one per network interface).
    public init() {}

    /// An estimate of its own that starts at `bitsPerSecond` (a play that must start from a known rate, whatever
    /// other plays of the process measured).
    public static func known(_ bitsPerSecond: Double) -> SharedBandwidthEstimate {
        let estimate = SharedBandwidthEstimate()
        estimate.record(bitsPerSecond)
        return estimate
    }

    /// Records `bitsPerSecond` as the latest estimate; a value that is not positive and finite is ignored.
    public func record(_ bitsPerSecond: Double) {
        guard bitsPerSecond.isFinite, bitsPerSecond > 0 else { return }
        value.withLock { $0 = bitsPerSecond }
    }

    /// The latest recorded estimate (bits per second); nil before any.
    public var current: Double? { value.withLock { $0 } }

    /// Forgets the estimate (the network changed: the old link's rate says nothing of the new one).
    public func reset() { value.withLock { $0 = nil } }
}

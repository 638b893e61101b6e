/// What one resource's transfers delivered while they moved: from the first bytes after every transfer of the
/// resource had stopped (or the first ever) to the moment they all stopped again (paused for a full read-ahead or a
/// claim on the link, finished, cancelled). The time is the transport's (real for HTTP, the clock's for a
/// simulated link). A throughput sample for a bandwidth estimate (`BandwidthEstimator.sample(bytes:seconds:)`).
public struct TransferMeasurement: Sendable, Equatable {
    /// The resource.
    public var url: String
    /// The bytes that arrived after the first piece of the measurement (that piece's time is unknown).
    public var bytes: Int64
    /// Seconds from the first piece's arrival to the last one's.
    public var seconds: Double

    public init(url: String, bytes: Int64, seconds: Double) {
        self.url = url
        self.bytes = bytes
        self.seconds = seconds
    }
}

/// The observers of a cache's transfer measurements, by number.
struct TransferObservers {
    var observers: [UInt64: @Sendable (TransferMeasurement) -> Void] = [:]
    var next: UInt64 = 0
}

extension ByteCache {
    /// Calls `observer` with every ``TransferMeasurement`` of the cache's transfers from now on, on the thread that
    /// stopped them, with no lock of the cache held (keep it short: a transfer's thread waits for it). Returns the
    /// number to give ``removeTransferObserver(_:)``.
    @discardableResult
    public func observeTransfers(_ observer: @escaping @Sendable (TransferMeasurement) -> Void) -> UInt64 {
        transferObservers.withLock { observers in
            observers.next += 1
            observers.observers[observers.next] = observer
            return observers.next
        }
    }

    /// Stops calling the observer numbered `token`.
    public func removeTransferObserver(_ token: UInt64) {
        transferObservers.withLock { _ = $0.observers.removeValue(forKey: token) }
    }
}

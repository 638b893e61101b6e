/// A source whose bytes arrive over a link (the network loader): how much of what lies ahead of its reader is
/// already there, and how fast more comes. A player reads it to tell how much media is buffered, whether playback
/// is likely to keep up, and to bound how far ahead it fetches.
public protocol ProgressiveByteSource: ByteSource {
    /// Where things stand now.
    var progress: ByteSourceProgress { get }
    /// Asks the source to fetch no more than `bytes` ahead of its reader (the forward buffer), at least one chunk.
    func setReadAhead(_ bytes: Int64)
}

/// One look at a ``ProgressiveByteSource``.
public struct ByteSourceProgress: Sendable, Equatable {
    /// Where its reader reads.
    public var position: Int64
    /// Bytes held from `position` on, without a gap.
    public var contiguousAhead: Int64
    /// The resource's length, once known.
    public var totalLength: Int64?
    /// The measured download rate, once known.
    public var bytesPerSecond: Double?
    /// Every byte range of the resource held (merged, in order).
    public var heldRanges: [Range<Int64>]
    /// Whether a transfer of the resource is bringing bytes now (not paused, not done).
    public var isTransferring: Bool
    /// Bytes that arrived over the link for the resource so far (all readers of it together).
    public var bytesTransferred: Int64
    /// Seconds from the first transfer's start to its first byte, once it came.
    public var timeToFirstByte: Double?

    public init(
        position: Int64 = 0, contiguousAhead: Int64 = 0, totalLength: Int64? = nil,
        bytesPerSecond: Double? = nil, heldRanges: [Range<Int64>] = [], isTransferring: Bool = false,
        bytesTransferred: Int64 = 0, timeToFirstByte: Double? = nil
    ) {
        self.position = position
        self.contiguousAhead = contiguousAhead
        self.totalLength = totalLength
        self.bytesPerSecond = bytesPerSecond
        self.heldRanges = heldRanges
        self.isTransferring = isTransferring
        self.bytesTransferred = bytesTransferred
        self.timeToFirstByte = timeToFirstByte
    }

    /// Whether every byte from the reader's position to the end is held.
    public var isComplete: Bool { totalLength.map { position + contiguousAhead >= $0 } ?? false }
}

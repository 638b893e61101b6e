/// Bytes for a demuxer to read instead of a file it opens itself: a local file, the network loader, or a source of
/// an app's (or a test's) own.
///
/// Called on the thread that reads the demuxer (never Swift's cooperative pool); `read` may block, which is how a
/// network source waits for data and how a throttled source throttles.
public protocol ByteSource: AnyObject, Sendable {
    /// Reads up to `buffer.count` bytes into `buffer`. Returns the number read (at least 1), or 0 at the end.
    /// - Throws: `MediaError` naming the source and saying why (an I/O error, a dropped connection, ...).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int
    /// Moves to byte `offset` from the start. - Throws: `MediaError` when the source cannot go there.
    func seek(to offset: Int64) throws(MediaError)
    /// Total size in bytes, or nil when unknown.
    var size: Int64? { get }
    /// The reader is going away: a read blocked in this source returns, and later reads return 0.
    /// The default does nothing (a local file never blocks).
    func close()
}

extension ByteSource {
    public func close() {}
}

/// A source whose bytes arrive only as clock time passes: a throttled or simulated-network source under a
/// `ManualClock`. A player on a manual clock asks it whether its reader waits for the clock, to tell "the decoder
/// is still working" (wait for it) from "the decoder waits for bytes that only an advance can bring" (settled).
public protocol ClockPacedByteSource: ByteSource {
    /// Whether its bytes move only as a manual clock advances (a source may be paced by the clock only with some
    /// transports: a network source over a simulated link, not over real HTTP).
    var isPacedByClock: Bool { get }
    /// Whether a reader is blocked in `read` for bytes that only the passing of clock time will bring.
    var isWaitingForClock: Bool { get }
    /// Calls `observer` (on the reader's thread, with no lock held) each time a reader starts waiting for the clock.
    func observeWaitingForClock(_ observer: @escaping @Sendable () -> Void)
}

/// A source whose waiting reads can be given up: a player's seek interrupts its reader's source, so that a read
/// waiting for bytes that may never come (an `AVAssetResourceLoader` delegate that stalls) does not hold the seek,
/// and resumes it when the decoder starts the seek (as AVFoundation cancels the loading requests a seek leaves).
public protocol InterruptibleByteSource: ByteSource {
    /// From now until ``resumeReads()``, a read waiting for bytes and every new read return 0 (the end, to the
    /// demuxer: its next seek clears that).
    func interruptReads()
    /// Reads read again.
    func resumeReads()
}

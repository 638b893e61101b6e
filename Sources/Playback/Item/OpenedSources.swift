import Loading
import Locking
import MediaCore
import Streaming

/// The byte sources one item's readers opened: the engine asks them whether the readers wait for the clock
/// (``ClockPacedByteSource``), and closes them when the item leaves (which unblocks a reader waiting in one).
final class OpenedSources: Sendable {
    private struct Opened {
        var sources: [(reader: ByteSourceRequest.Reader, source: any ByteSource)] = []
        var closed = false
        var priority: TransferPriority = .playback
    }

    private let state = Locked(Opened())
    private let onWaiting: @Sendable () -> Void

    /// Sources whose readers start waiting for the clock call `onWaiting`.
    init(onWaiting: @escaping @Sendable () -> Void) {
        self.onWaiting = onWaiting
    }

    /// Records `source`, opened for `reader` (closed at once if the item has left meanwhile).
    func add(_ source: any ByteSource, for reader: ByteSourceRequest.Reader) {
        let (closed, priority) = state.withLock { s -> (Bool, TransferPriority) in
            if !s.closed { s.sources.append((reader, source)) }
            return (s.closed, s.priority)
        }
        if closed {
            source.close()
            return
        }
        if priority != .playback, let remote = source as? RemoteByteSource { remote.setPriority(priority) }
        if priority != .playback, let segmented = source as? SegmentedStream { segmented.setPriority(priority) }
        (source as? any ClockPacedByteSource)?.observeWaitingForClock(onWaiting)
    }

    /// Whether a reader (of `reader`'s sources, or any when nil) is blocked for bytes only clock time will bring.
    func isWaitingForClock(_ reader: ByteSourceRequest.Reader? = nil) -> Bool {
        let sources = state.withLock { $0.sources }
        return sources.contains { entry in
            (reader == nil || entry.reader == reader)
                && (entry.source as? any ClockPacedByteSource)?.isWaitingForClock == true
        }
    }

    /// Makes the remote sources' fetches `priority` (now, and for sources opened later).
    func setPriority(_ priority: TransferPriority) {
        let sources = state.withLock { s -> [any ByteSource] in
            s.priority = priority
            return s.sources.map(\.source)
        }
        for source in sources {
            (source as? RemoteByteSource)?.setPriority(priority)
            (source as? SegmentedStream)?.setPriority(priority)
        }
    }

    /// Calls `body` with each source whose bytes come over a link.
    func forEachProgressive(_ body: (any ProgressiveByteSource) -> Void) {
        for entry in state.withLock({ $0.sources }) {
            if let progressive = entry.source as? any ProgressiveByteSource { body(progressive) }
        }
    }

    /// Gives up the waiting reads of `reader`'s sources that can be interrupted, until ``resumeReads(of:)`` (a seek
    /// of that reader's decoder: ``InterruptibleByteSource``).
    func interruptReads(of reader: ByteSourceRequest.Reader) {
        for source in sources(of: reader) { (source as? any InterruptibleByteSource)?.interruptReads() }
    }

    /// Lets `reader`'s sources read again.
    func resumeReads(of reader: ByteSourceRequest.Reader) {
        for source in sources(of: reader) { (source as? any InterruptibleByteSource)?.resumeReads() }
    }

    private func sources(of reader: ByteSourceRequest.Reader) -> [any ByteSource] {
        state.withLock { $0.sources.filter { $0.reader == reader }.map(\.source) }
    }

    /// Closes and forgets `reader`'s sources (a reader about to open its media again).
    func close(of reader: ByteSourceRequest.Reader) {
        let sources = state.withLock { s -> [any ByteSource] in
            defer { s.sources.removeAll { $0.reader == reader } }
            return s.sources.filter { $0.reader == reader }.map(\.source)
        }
        for source in sources { source.close() }
    }

    /// Closes every source (now and any added later).
    func closeAll() {
        let sources = state.withLock { s -> [any ByteSource] in
            s.closed = true
            defer { s.sources.removeAll() }
            return s.sources.map(\.source)
        }
        for source in sources { source.close() }
    }
}

import Loading
import Locking
import MediaCore

/// One reader's view of an adaptive presentation: the segments of the variants its ``StreamSession`` decided, one
/// after another, as one byte stream a demuxer reads as a file (an fMP4 rendition's initialization section first,
/// and again where the variant changes). Each part is read through `Loading` (its byte cache: a segment the session
/// downloaded ahead, or the other reader read, is not fetched again), bounded to the segment's byte range.
///
/// A segment with an AES-128 key (`#EXT-X-KEY:METHOD=AES-128`) is decrypted as it is read (``DecryptedPart``; the
/// downloads ahead and the cache keep its ciphertext); its key is fetched once per key URL by the session.
///
/// Seeks within the parts read since the last ``reposition(toSeconds:)`` are served (a demuxer probing may step
/// back); ``reposition(toSeconds:)`` starts over at a segment, which is how the demuxer seeks.
///
/// A stream made with ``init(audioOf:)`` reads the session's alternative audio rendition instead: its segments,
/// one after another, with their own indexes and times.
public final class SegmentedStream: SegmentedByteSource, Sendable {
    public let session: StreamSession
    /// Whether this reader's progress drives the downloads ahead (the primary reader's does; the audio reader
    /// follows the same decisions a little behind).
    public let drivesDownloads: Bool
    /// Whether it reads the session's audio rendition (``StreamSession/audioRendition``), not the variants.
    public let readsAudioRendition: Bool
    private let state: Locked<State>

    /// A part of the stream: an initialization section or a segment, at `start` in the stream's bytes.
    struct Part {
        var url: String
        var range: ByteRange?
        var start: Int64
        /// Its length once read to its end (or known from its range).
        var length: Int64?
        /// Set for an initialization section (read before segment `segmentIndex`).
        var initialization: InitializationSection?
        var segmentIndex: Int
        /// A segment's AES-128 key and the segment's media sequence number (its IV when the key gives none).
        var key: SegmentKey? = nil
        var sequence = 0
    }

    struct State {
        /// The parts opened since the last reposition (the newest 8), the one being read last.
        var parts: [Part] = []
        var source: RemoteByteSource?
        /// The current part's decryption when it is an AES-128 segment (it reads `source`).
        var decrypted: DecryptedPart?
        /// Where the reader is in the current part.
        var offsetInPart: Int64 = 0
        /// The current part's retries after a 404 at a live edge (``SegmentedStream/reopenAtLiveEdge(after:)``).
        var edgeRetries = 0
        var nextSegment = 0
        var lastInitialization: InitializationSection?
        /// The stream ended its reads at a variant change that needs a new header (a new initialization section).
        var atBoundary = false
        var closed = false
    }

    public init(session: StreamSession, drivesDownloads: Bool) {
        self.session = session
        self.drivesDownloads = drivesDownloads
        readsAudioRendition = false
        var state = State()
        state.nextSegment = session.startIndex
        self.state = Locked(state)
    }

    /// A reader of `session`'s audio rendition (``StreamSession/audioRendition``; a stream that ends at once
    /// without one): the audio downloads ahead follow it; closing it leaves the session open.
    public init(audioOf session: StreamSession) {
        self.session = session
        drivesDownloads = false
        readsAudioRendition = true
        var state = State()
        state.nextSegment = session.audioStartIndex
        self.state = Locked(state)
    }

    deinit { close() }

    public var presentationDuration: Double? { session.duration }

    public var size: Int64? { nil }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        while true {
            let current = state.withLock { s -> (RemoteByteSource?, DecryptedPart?, Int64?)? in
                guard !s.closed else { return nil }
                guard let part = s.parts.last else { return (nil, nil, nil) }
                return (s.source, s.decrypted, s.decrypted == nil ? part.range.map { $0.length - s.offsetInPart } : nil)
            }
            guard let (source, decrypted, remaining) = current else { return 0 }
            if let decrypted {
                let count = try decrypted.read(into: buffer)
                if count > 0 {
                    state.withLock { $0.offsetInPart += Int64(count) }
                    return count
                }
            } else if let source, remaining.map({ $0 > 0 }) ?? true {
                let wanted = min(buffer.count, Int(clamping: remaining ?? Int64(buffer.count)))
                let count: Int
                do throws(MediaError) {
                    count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
                } catch {
                    if try reopenAtLiveEdge(after: error) { continue }
                    throw error
                }
                if count > 0 {
                    state.withLock { $0.offsetInPart += Int64(count) }
                    return count
                }
                if let remaining, remaining > 0 {
                    let url = state.withLock { $0.parts.last?.url } ?? session.url
                    throw MediaError(
                        .truncated, url: url, operation: .read, reason: "the segment ended \(remaining) bytes early")
                }
            }
            guard try openNextPart() else { return 0 }
        }
    }

    public func continueAfterBoundary() -> Bool {
        state.withLock { s in
            guard s.atBoundary, !s.closed else { return false }
            // The demuxer opens anew: its stream starts at byte 0 with the new variant's initialization section.
            s.atBoundary = false
            s.parts = []
            s.offsetInPart = 0
            s.lastInitialization = nil
            return true
        }
    }

    /// Ends the current part and opens the next: the next segment, or its initialization section first when it
    /// differs from the last one read. Returns false past the last segment, and at a variant change whose new
    /// initialization section the demuxer must read as a new stream (``continueAfterBoundary()``).
    private func openNextPart() throws(MediaError) -> Bool {
        let (index, lastInit) = state.withLock { s -> (Int, InitializationSection?) in
            if var part = s.parts.last, part.length == nil {
                part.length = s.decrypted?.length ?? s.offsetInPart
                s.parts[s.parts.count - 1] = part
            }
            s.source?.close()
            s.source = nil
            s.decrypted = nil
            return (s.nextSegment, s.lastInitialization)
        }
        guard let segment = try segment(at: index) else { return false }
        let part: Part
        if let initialization = segment.initialization, initialization != lastInit, lastInit != nil {
            state.withLock { $0.atBoundary = true }
            return false
        } else if let initialization = segment.initialization, initialization != lastInit {
            // An encrypted section's IV, when its key gives none, is the sequence number of the segment it precedes
            // (as FFmpeg's HLS demuxer takes it; RFC 8216 requires an IV there).
            part = Part(
                url: initialization.url, range: initialization.byteRange, start: 0, length: nil,
                initialization: initialization, segmentIndex: index, key: initialization.key,
                sequence: segment.sequence)
        } else {
            part = Part(
                url: segment.url, range: segment.byteRange, start: 0, length: nil, initialization: nil,
                segmentIndex: index, key: segment.key, sequence: segment.sequence)
            if readsAudioRendition {
                session.audioReaderEntered(index)
            } else if drivesDownloads {
                session.readerEntered(index)
            }
        }
        try open(part)
        return true
    }

    /// Segment `index` of what it reads: the variant decided for it, or the audio rendition's; nil past the last.
    private func segment(at index: Int) throws(MediaError) -> Segment? {
        if readsAudioRendition { return try session.audioSegment(reading: index) }
        return try session.segment(at: index, reading: drivesDownloads)?.segment
    }

    /// A source for `part` at its start, and its decryption when it is an AES-128 segment (fetching its key).
    private func reader(_ part: Part) throws(MediaError) -> (RemoteByteSource, DecryptedPart?) {
        let source = session.loading.source(part.url, priority: session.priority)
        if let key = part.key {
            do throws(MediaError) {
                let decrypted = try DecryptedPart(
                    source: source, url: part.url, range: part.range, key: try session.key(key),
                    iv: key.iv(forSequence: part.sequence))
                return (source, decrypted)
            } catch {
                source.close()
                throw error
            }
        }
        if let range = part.range {
            try source.seek(to: range.offset)
            source.setFetchLimit(range.end)
        }
        return (source, nil)
    }

    /// At most how many times a segment at a live edge that answered 404 is asked for again
    /// (``reopenAtLiveEdge(after:)``; its time window ends it first: ``StreamSession/liveEdgeTolerance``).
    static let liveEdgeRetries = 32

    /// A live MPD's `$Number$` segment is named by the wall clock: an origin whose encoder runs late (a busy machine)
    /// answers 404 for the newest for a while (the loader does not retry a 404). When the current part is such a
    /// segment, nothing of it read yet, it is asked for again every half segment duration while it became due less
    /// than ``StreamSession/liveEdgeTolerance`` ago (``StreamSession/liveEdgeWait(forSegment:)``), as dash.js retries
    /// a live segment. Returns whether it was (the read goes on); false for any other failure, which the caller
    /// throws.
    private func reopenAtLiveEdge(after error: MediaError) throws(MediaError) -> Bool {
        guard error.kind == .httpStatus, error.code == 404 else { return false }
        let retried = state.withLock { s -> Part? in
            guard !s.closed, let part = s.parts.last, part.initialization == nil, s.offsetInPart == 0,
                s.edgeRetries < Self.liveEdgeRetries
            else { return nil }
            s.edgeRetries += 1
            return part
        }
        guard let part = retried, let wait = session.liveEdgeWait(forSegment: part.segmentIndex) else { return false }
        session.sleep(seconds: wait)
        let (source, decrypted) = try reader(part)
        let kept = state.withLock { s -> Bool in
            guard !s.closed else { return false }
            s.source?.close()
            s.source = source
            s.decrypted = decrypted
            return true
        }
        if !kept { source.close() }
        return kept
    }

    private func open(_ newPart: Part) throws(MediaError) {
        let (source, decrypted) = try reader(newPart)
        let closed = state.withLock { s -> Bool in
            guard !s.closed else { return true }
            var part = newPart
            // An AES-128 segment's plaintext is shorter than its range (the padding): its length is known at its end.
            part.length = decrypted == nil ? newPart.range?.length : nil
            if let last = s.parts.last { part.start = last.start + (last.length ?? s.offsetInPart) }
            if let initialization = part.initialization {
                s.lastInitialization = initialization
                s.nextSegment = part.segmentIndex
            } else {
                s.nextSegment = part.segmentIndex + 1
            }
            s.parts.append(part)
            if s.parts.count > 8 { s.parts.removeFirst(s.parts.count - 8) }
            s.source = source
            s.decrypted = decrypted
            s.offsetInPart = 0
            s.edgeRetries = 0
            return false
        }
        if closed { source.close() }
    }

    public func seek(to offset: Int64) throws(MediaError) {
        if try seekForward(to: offset) { return }
        let target = state.withLock { s -> (Part, Int)? in
            guard let i = s.parts.lastIndex(where: { $0.start <= offset }) else { return nil }
            let part = s.parts[i]
            let end = part.length.map { part.start + $0 } ?? (i == s.parts.count - 1 ? Int64.max : part.start)
            return offset <= end ? (part, i) : nil
        }
        guard let (part, index) = target else {
            throw MediaError(
                .seekFailed, url: session.url, operation: .seek,
                reason: "byte \(offset) of the segmented stream is not in the segments read since the last seek")
        }
        let within = offset - part.start
        let isCurrent = state.withLock { index == $0.parts.count - 1 && $0.source != nil }
        if isCurrent {
            let (source, decrypted) = state.withLock { ($0.source, $0.decrypted) }
            if let decrypted {
                try decrypted.seek(to: within)
            } else {
                try source?.seek(to: (part.range?.offset ?? 0) + within)
            }
            state.withLock { $0.offsetInPart = within }
            return
        }
        // An earlier part: read it again (from the cache), and the parts after it as they come.
        let (source, decrypted) = try reader(part)
        do throws(MediaError) {
            if let decrypted {
                try decrypted.seek(to: within)
            } else {
                try source.seek(to: (part.range?.offset ?? 0) + within)
            }
        } catch {
            source.close()
            throw error
        }
        let old = state.withLock { s -> RemoteByteSource? in
            let old = s.source
            s.parts.removeSubrange((index + 1)...)
            s.source = source
            s.decrypted = decrypted
            s.offsetInPart = within
            if let initialization = part.initialization {
                // After an initialization section comes the segment it was read before.
                s.lastInitialization = initialization
                s.nextSegment = part.segmentIndex
            } else {
                s.nextSegment = part.segmentIndex + 1
            }
            return old
        }
        old?.close()
    }

    /// A seek at or past the current part's end (a demuxer skipping an atom it does not need, which may lie in the
    /// next segments): the parts in between are opened in turn (their lengths from their ranges or the server's
    /// answer) and the stream lands in the one that holds `offset`. Returns false for an offset before the current
    /// part's end.
    private func seekForward(to offset: Int64) throws(MediaError) -> Bool {
        while true {
            let current = state.withLock { s in s.parts.last.map { ($0, s.source, s.decrypted) } }
            guard let (part, source, decrypted) = current else { return false }
            var length = part.length
            if length == nil, let decrypted {
                length = try decrypted.plaintextLength()
            } else if length == nil, let source, let size = source.size {
                length = size - (part.range?.offset ?? 0)
            }
            guard let length, offset >= part.start + length else {
                if offset < part.start { return false }
                if let decrypted {
                    try decrypted.seek(to: offset - part.start)
                    state.withLock { $0.offsetInPart = offset - part.start }
                    return true
                }
                guard let source else { return false }
                try source.seek(to: (part.range?.offset ?? 0) + offset - part.start)
                state.withLock { $0.offsetInPart = offset - part.start }
                return true
            }
            state.withLock { s in
                if !s.parts.isEmpty { s.parts[s.parts.count - 1].length = length }
                s.offsetInPart = length
            }
            if !(try openNextPart()) { return true }
        }
    }

    public func reposition(toSeconds seconds: Double) throws(MediaError) -> Double {
        let index = readsAudioRendition ? session.audioIndex(containing: seconds) : session.index(containing: seconds)
        let old = state.withLock { s -> RemoteByteSource? in
            defer {
                s.source = nil
                s.decrypted = nil
                s.parts = []
                s.offsetInPart = 0
                s.nextSegment = index
                s.lastInitialization = nil
            }
            return s.source
        }
        old?.close()
        if readsAudioRendition {
            session.audioRepositioned(to: index)
            return session.audioSegment(at: index)?.start ?? seconds
        }
        if drivesDownloads { session.repositioned(to: index) }
        return try session.segment(at: index)?.segment.start ?? seconds
    }

    public func close() {
        let source = state.withLock { s -> RemoteByteSource? in
            s.closed = true
            defer {
                s.source = nil
                s.decrypted = nil
            }
            return s.source
        }
        source?.close()
        if drivesDownloads { session.close() }
    }

    /// Makes this reader's fetches, and the session's, `priority` from now on (an item prepared ahead reads at
    /// prefetch priority, giving way while a player claims the link, and at playback priority once shown).
    public func setPriority(_ priority: TransferPriority) {
        session.setPriority(priority)
        state.withLock { $0.source }?.setPriority(priority)
    }
}

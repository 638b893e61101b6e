/// Reads the event message boxes (`emsg`, ISO/IEC 23009-1, versions 0 and 1) of a fragmented MP4 into timed
/// metadata samples, in stream order: a progressive fMP4 file, or an HLS or DASH fMP4 rendition as its segmented
/// stream presents it (initialization section, then segments). FFmpeg 5.1's mov demuxer skips these boxes, so the
/// reader walks the stream's top-level boxes itself: the moov for the tracks' timescales, each moof for its
/// fragment's earliest presentation time (the smallest `tfdt` of its track fragments), each `emsg`; the media data
/// is skipped (a seek past it).
///
/// A version 1 box's time is its `presentation_time` over its `timescale`; a version 0 box's is the earliest
/// presentation time of its segment (the next moof's, as CMAF puts the box before it) plus its
/// `presentation_time_delta`. Times are from `origin` (the media's start, where the demuxer's times start). A box
/// of the scheme ``EventMessage/id3Scheme`` gives the frames of its ID3 tag; any other scheme's message is kept as
/// its bytes. A box that cannot be read (truncated, or its fields past its end) is counted (``damagedBoxes``) and
/// skipped; a top-level box whose size is less than its header ends the stream with an error. Blocking: use it
/// from a thread of its own. One thread at a time.
public final class EventMessageReader: TimedMetadataSource, @unchecked Sendable {
    /// The largest `emsg` read (a larger one is skipped, counted damaged); a moof's and a moov's largest.
    static let eventLimit = 1 << 20
    static let fragmentLimit = 16 << 20

    public let url: String
    let source: any ByteSource
    let origin: MediaTime
    private var stream: MP4BoxStream
    /// Timescales of the moov's tracks, by track id.
    private var timescales: [UInt32: UInt32] = [:]
    /// Version 0 boxes waiting for their segment's earliest presentation time.
    private var pending: [(event: EventMessage, timescale: UInt32, delta: UInt64, duration: UInt32, message: [UInt8])] =
        []
    private var ready: [TimedMetadataSample] = []
    private var lastFragmentStart: MediaTime?
    public private(set) var position: MediaTime?
    /// `emsg` boxes skipped: truncated, fields past their end, larger than 1 MiB, version unknown, or beyond
    /// ``pendingByteLimit``.
    public private(set) var damagedBoxes = 0
    /// The most bytes of version 0 messages held while they wait for their segment's start (more boxes before a
    /// moof than this are dropped, counted in ``damagedBoxes``).
    public let pendingByteLimit: Int
    private var pendingBytes = 0

    /// Reads `source` (at its start) of the media at `url`, whose times start at `origin`, holding at most
    /// `pendingByteLimit` bytes of version 0 messages before their moof.
    public init(source: any ByteSource, url: String, origin: MediaTime = .zero, pendingByteLimit: Int = 4 << 20) {
        self.source = source
        self.url = url
        self.origin = origin
        self.pendingByteLimit = pendingByteLimit
        self.stream = MP4BoxStream(source: source, url: url)
    }

    /// The bytes of version 0 messages held now, waiting for their segment's start.
    public var heldBytes: Int { pendingBytes }

    public func next(until limit: MediaTime) throws(MediaError) -> TimedMetadataStep {
        while true {
            if !ready.isEmpty { return .sample(ready.removeFirst()) }
            if let position, position > limit { return .reachedLimit }
            guard let header = try stream.next() else {
                if let segmented = source as? any SegmentedByteSource, segmented.continueAfterBoundary() {
                    stream = MP4BoxStream(source: source, url: url)
                    continue
                }
                // Version 0 boxes after the last fragment: from the last fragment's start.
                if let start = lastFragmentStart { resolvePending(segmentStart: start) }
                pending = []
                pendingBytes = 0
                if !ready.isEmpty { continue }
                return .end
            }
            switch MP4Box.name(header.type) {
            case "moov":
                guard let body = try stream.body(of: header, limit: Self.fragmentLimit) else { continue }
                for track in MP4TrackHeader.tracks(of: MP4Box(type: header.type, body: body[...])) {
                    timescales[track.trackID] = track.timescale
                }
            case "moof":
                guard let body = try stream.body(of: header, limit: Self.fragmentLimit),
                    let start = fragmentStart(MP4Box(type: header.type, body: body[...]))
                else { continue }
                lastFragmentStart = start
                resolvePending(segmentStart: start)
                position = max(position ?? start, start)
            case "emsg":
                guard let body = try stream.body(of: header, limit: Self.eventLimit) else {
                    damagedBoxes += 1
                    continue
                }
                if !read(event: body) { damagedBoxes += 1 }
            default:
                try stream.skip(header)
            }
        }
    }

    /// Moves to about `time`: a segmented stream to the segment that holds it, a file to its start (the samples
    /// before `time` are read again: the caller drops them).
    public func seek(toAtOrBefore time: MediaTime) throws(MediaError) {
        if let segmented = source as? any SegmentedByteSource {
            _ = try segmented.reposition(toSeconds: max(time.seconds, 0))
        } else {
            try source.seek(to: 0)
        }
        stream = MP4BoxStream(source: source, url: url)
        pending = []
        pendingBytes = 0
        ready = []
        position = nil
        lastFragmentStart = nil
    }

    /// The earliest presentation time of a moof's fragment: its track fragments' smallest `tfdt` (from `origin`).
    private func fragmentStart(_ moof: MP4Box) -> MediaTime? {
        moof.children("traf").compactMap { traf -> MediaTime? in
            guard var tfhd = traf.child("tfhd").map({ MP4Fields($0.body) }),
                var tfdt = traf.child("tfdt").map({ MP4Fields($0.body) }),
                tfhd.skip(4), let trackID = tfhd.uint32(), let scale = timescales[trackID],
                let version = tfdt.uint(1), tfdt.skip(3), let decodeTime = tfdt.uint(version == 1 ? 8 : 4),
                let time = Self.time(decodeTime, scale)
            else { return nil }
            return time - origin
        }.min()
    }

    /// Reads an `emsg` body: a version 1 box is ready, a version 0 box waits for its segment's start. False when it
    /// cannot be read.
    private func read(event body: [UInt8]) -> Bool {
        var fields = MP4Fields(body[...])
        guard let version = fields.uint(1), fields.skip(3) else { return false }
        switch version {
        case 0:
            guard let scheme = fields.cString(), let value = fields.cString(), let scale = fields.uint32(),
                let delta = fields.uint32(), let duration = fields.uint32(), let id = fields.uint32(),
                Self.time(UInt64(delta), scale) != nil
            else { return false }
            let message = Array(fields.rest)
            guard pendingBytes + message.count <= pendingByteLimit else { return false }
            pendingBytes += message.count
            let event = EventMessage(schemeIdURI: scheme, value: value, id: id, version: 0)
            pending.append((event, scale, UInt64(delta), duration, message))
        case 1:
            guard let scale = fields.uint32(), let ticks = fields.uint(8), let duration = fields.uint32(),
                let id = fields.uint32(), let scheme = fields.cString(), let value = fields.cString(),
                let time = Self.time(ticks, scale)
            else { return false }
            let event = EventMessage(schemeIdURI: scheme, value: value, id: id, version: 1)
            let start = time - origin
            ready.append(sample(event, at: start, timescale: scale, duration: duration, message: Array(fields.rest)))
        default:
            return false
        }
        return true
    }

    private func resolvePending(segmentStart: MediaTime) {
        for box in pending {
            let delta = Self.time(box.delta, box.timescale) ?? .zero  // checked when the box was read
            ready.append(
                sample(
                    box.event, at: segmentStart + delta, timescale: box.timescale, duration: box.duration,
                    message: box.message))
        }
        pending = []
        pendingBytes = 0
    }

    /// `ticks` of `scale` as a time; nil for a timescale of 0 or past Int32's, or a time of 2^28 s (8.5 years) or
    /// more: the sums and comparisons of such times then stay far from Int64's bounds.
    static func time(_ ticks: UInt64, _ scale: UInt32) -> MediaTime? {
        guard scale > 0, scale <= Int32.max, ticks / UInt64(scale) < 1 << 28 else { return nil }
        return MediaTime(value: Int64(ticks), timescale: Int32(scale))
    }

    /// The sample of an event: an ID3 tag's frames for the ID3 scheme (none when the tag cannot be read).
    private func sample(
        _ event: EventMessage, at time: MediaTime, timescale: UInt32, duration: UInt32, message: [UInt8]
    )
        -> TimedMetadataSample
    {
        // 0xFFFFFFFF: unknown duration.
        let span =
            duration == UInt32.max ? nil : MediaTime(value: Int64(duration), timescale: Int32(clamping: timescale))
        let frames = event.schemeIdURI == EventMessage.id3Scheme ? ID3Tag.frames(in: message) ?? [] : []
        return TimedMetadataSample(time: time, duration: span, bytes: message, frames: frames, event: event)
    }

    /// The most top-level boxes a probe reads before giving up.
    static let probeBoxLimit = 64

    /// Whether `source` (an MP4 from its start) is fragmented and carries an `emsg` box before its first fragment's
    /// media data: its top-level boxes up to there are read (their headers; the rest skipped by seeks).
    /// - Throws: a read error of the source.
    public static func firstFragmentHasEvents(source: any ByteSource, url: String) throws(MediaError) -> Bool {
        let stream = MP4BoxStream(source: source, url: url)
        var sawFragment = false
        for _ in 0..<probeBoxLimit {
            guard let header = try stream.next() else { return false }
            switch MP4Box.name(header.type) {
            case "emsg": return true
            case "moof": sawFragment = true
            case "mdat" where sawFragment: return false
            default: break
            }
            try stream.skip(header)
        }
        return false
    }
}

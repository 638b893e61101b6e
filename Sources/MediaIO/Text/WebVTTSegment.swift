/// One WebVTT file of an HLS subtitle rendition (a segment): its cues, timed from the file's zero, and the
/// `X-TIMESTAMP-MAP` that places that zero on the presentation's timeline.
///
/// The cues are read by FFmpeg's WebVTT demuxer and decoder, as a WebVTT track of a container is (``TextTrackReader``):
/// the same markup, styles and runs. The header is read here: FFmpeg's demuxer skips it.
public struct WebVTTSegment: Sendable {
    /// The cues, in file order, from the file's time zero (`00:00.000`).
    public var cues: [TextCue]
    /// Where the file's times lie on the presentation's timeline; nil when the header has no `X-TIMESTAMP-MAP`.
    public var timestampMap: WebVTTTimestampMap?
    /// Why cues the file has are not in ``cues`` (a malformed cue timing line: FFmpeg's WebVTT demuxer reads no
    /// cue after it); nil when every cue was read.
    public var damage: MediaError?

    /// Decodes the WebVTT file `bytes`, named `url` in errors.
    /// - Throws: `.notMedia` when it does not begin with `WEBVTT`; `.decodeFailed` for an `X-TIMESTAMP-MAP` that
    ///   does not parse; FFmpeg's errors when the demuxer or decoder refuse it; `.decodeFailed` when cue blocks are
    ///   there but none decodes.
    public static func decode(_ bytes: [UInt8], url: String) throws(MediaError) -> WebVTTSegment {
        let header = try Self.header(of: bytes, url: url)
        let map = try header.first { $0.hasPrefix("X-TIMESTAMP-MAP=") }.map { line throws(MediaError) in
            try WebVTTTimestampMap(parsing: String(line.dropFirst("X-TIMESTAMP-MAP=".count)), url: url)
        }
        let demuxer = try Demuxer(subtitlesAt: url, source: SegmentBytes(bytes))
        let reader = try TextTrackReader(demuxer: demuxer, timesFromFileZero: true)
        var cues: [TextCue] = []
        while let next = try reader.nextCues() { cues += next }
        if cues.isEmpty, reader.damagedPackets > 0, let error = reader.lastDecodeError { throw error }
        var segment = WebVTTSegment(cues: cues, timestampMap: map)
        // Every cue has one timing line, the only line `-->` may be on (WebVTT forbids it in cue text).
        let timings = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
            .filter { $0.contains("-->") }.count
        if cues.count < timings {
            segment.damage = MediaError(
                .decodeFailed, url: url, operation: .decode,
                reason: "\(timings - cues.count) of \(timings) cues not read (a malformed cue timing line)")
        }
        return segment
    }

    /// The header's lines (from `WEBVTT` to the first blank line).
    /// - Throws: `.notMedia` when the file does not begin with `WEBVTT` (after an optional byte order mark) followed
    ///   by a space, a tab or the end of the line.
    static func header(of bytes: [UInt8], url: String) throws(MediaError) -> [Substring] {
        var text = Substring(String(decoding: bytes.prefix(4096), as: UTF8.self))
        if text.unicodeScalars.first == "\u{FEFF}" { text = Substring(text.unicodeScalars.dropFirst()) }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard let first = lines.first, first.hasPrefix("WEBVTT"),
            first.count == 6 || [" ", "\t"].contains(first[first.index(first.startIndex, offsetBy: 6)])
        else {
            throw MediaError(
                .notMedia, url: url, operation: .probe, reason: "not WebVTT: it does not begin with 'WEBVTT'")
        }
        return Array(lines.prefix { !$0.trimmingWhitespace.isEmpty })
    }
}

/// `X-TIMESTAMP-MAP=MPEGTS:<90 kHz ticks>,LOCAL:<WebVTT time>` (RFC 8216 3.5): the WebVTT time `local` is the
/// instant whose MPEG-2 presentation timestamp is `mpegts`, on the 90 kHz clock every rendition's timestamps share
/// (for fMP4 media, its media timeline in 90 kHz units).
public struct WebVTTTimestampMap: Sendable, Equatable {
    /// 90 kHz ticks (33 bits, as PES timestamps).
    public var mpegts: Int64
    public var local: MediaTime

    public init(mpegts: Int64, local: MediaTime) {
        self.mpegts = mpegts
        self.local = local
    }

    /// Parses the value after `X-TIMESTAMP-MAP=` (`MPEGTS:900000,LOCAL:00:00:00.000`, in either order).
    /// - Throws: `.decodeFailed` naming `url` when a part is missing or malformed.
    public init(parsing value: String, url: String) throws(MediaError) {
        var mpegts: Int64?
        var local: MediaTime?
        for part in value.split(separator: ",") {
            let trimmed = part.trimmingWhitespace
            if trimmed.hasPrefix("MPEGTS:") {
                let digits = trimmed.dropFirst(7)
                if digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }) { mpegts = Int64(digits) }
            } else if trimmed.hasPrefix("LOCAL:") {
                local = Self.time(trimmed.dropFirst(6))
            }
        }
        guard let mpegts, let local else {
            throw MediaError(
                .decodeFailed, url: url, operation: .decode,
                reason: "X-TIMESTAMP-MAP is not MPEGTS:<ticks>,LOCAL:<time>: '\(value)'")
        }
        self.init(mpegts: mpegts, local: local)
    }

    /// The media time (from the start of the media, which is at `presentationStart` on the presentation's timeline)
    /// of the WebVTT time `time`. The 33-bit timestamp is taken in the wrap nearest `presentationStart`.
    public func mediaTime(ofLocal time: MediaTime, presentationStart: MediaTime) -> MediaTime {
        let period: Int64 = 1 << 33
        let startTicks = Int64((presentationStart.seconds * 90_000).rounded())
        var ticks = mpegts
        while ticks - startTicks > period / 2 { ticks -= period }
        while startTicks - ticks > period / 2 { ticks += period }
        return MediaTime(value: ticks, timescale: 90_000) - presentationStart + (time - local)
    }

    /// A WebVTT timestamp, `[hh:]mm:ss.ttt` (hours of two or more digits), as milliseconds; nil when malformed.
    static func time(_ text: Substring) -> MediaTime? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count) else { return nil }
        let seconds = fields[fields.count - 1].split(separator: ".", omittingEmptySubsequences: false)
        guard seconds.count == 2, seconds[0].count == 2, seconds[1].count == 3,
            fields[fields.count - 2].count == 2, fields.count == 2 || (2...10).contains(fields[0].count),
            let ss = Int64(seconds[0]), let ms = Int64(seconds[1]), let mm = Int64(fields[fields.count - 2]),
            [seconds[0], seconds[1], fields[fields.count - 2]].allSatisfy({ $0.allSatisfy(\.isNumber) }),
            ss < 60, mm < 60
        else { return nil }
        var hh: Int64 = 0
        if fields.count == 3 {
            guard fields[0].allSatisfy(\.isNumber), let hours = Int64(fields[0]) else { return nil }
            hh = hours
        }
        return MediaTime(value: ((hh * 60 + mm) * 60 + ss) * 1000 + ms, timescale: 1000)
    }
}

extension Substring {
    fileprivate var trimmingWhitespace: Substring {
        var trimmed = self
        while let first = trimmed.first, first == " " || first == "\t" { trimmed.removeFirst() }
        while let last = trimmed.last, last == " " || last == "\t" || last == "\r" { trimmed.removeLast() }
        return trimmed
    }
}

/// One WebVTT file's bytes, read by the one demuxer opened over them (on one thread: `@unchecked Sendable` since
/// `ByteSource` requires `Sendable`; the demuxer that owns it is used by one thread at a time).
private final class SegmentBytes: ByteSource, @unchecked Sendable {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var size: Int64? { Int64(bytes.count) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        buffer.copyBytes(from: bytes[offset..<offset + count])
        offset += count
        return count
    }

    func seek(to position: Int64) throws(MediaError) {
        offset = Int(max(0, min(position, Int64(bytes.count))))
    }
}

import Foundation
import MediaCore

/// Reads the lines of an HLS media playlist into a ``MediaPlaylist``: the tags before a URI line describe its
/// segment (`#EXTINF`, `#EXT-X-BYTERANGE`, `#EXT-X-DISCONTINUITY`), and `#EXT-X-MAP` and `#EXT-X-KEY` hold for every
/// segment after them until the next.
struct HLSMediaPlaylistReader {
    private let url: String
    private var targetDuration: Double?
    private var mediaSequence = 0
    private var discontinuitySequence = 0
    private var playlistType: String?
    private var hasEndList = false
    private var segments: [Segment] = []
    private var start = 0.0
    // What the tags so far say of the next segment.
    private var duration: Double?
    private var range: (line: Int, length: Int64, offset: Int64?)?
    private var discontinuity = false
    private var programDate: Double?
    /// The date the next segment starts at when no `#EXT-X-PROGRAM-DATE-TIME` names one (the last one's plus the
    /// durations since).
    private var runningDate: Double?
    // What holds until the next tag of its kind.
    private var map: InitializationSection?
    private var key: SegmentKey?
    /// Where the last sub-range of each URI ended, for `#EXT-X-BYTERANGE` without an offset.
    private var rangeEnds: [String: Int64] = [:]

    private init(url: String) { self.url = url }

    static func read(_ lines: [HLSLine], url: String) throws(MediaError) -> MediaPlaylist {
        var reader = HLSMediaPlaylistReader(url: url)
        for line in lines.dropFirst() where !line.text.isEmpty {
            try reader.take(line)
        }
        guard let targetDuration = reader.targetDuration else {
            throw HLSPlaylistParser.malformed(url, lines.count, "media playlist without #EXT-X-TARGETDURATION")
        }
        let hasEnd = reader.hasEndList || reader.playlistType == "VOD"
        let kind: MediaPlaylist.Kind = hasEnd ? .vod : reader.playlistType == "EVENT" ? .event : .live
        return MediaPlaylist(
            kind: kind, targetDuration: targetDuration, mediaSequence: reader.mediaSequence,
            segments: reader.segments, hasEnd: hasEnd, discontinuitySequence: reader.discontinuitySequence)
    }

    private mutating func take(_ line: HLSLine) throws(MediaError) {
        let text = line.text
        guard text.hasPrefix("#") else { return try segment(uri: text, line: line.number) }
        if let value = HLSPlaylistParser.tagValue(text, "#EXTINF") {
            let durationText = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard let seconds = HLSPlaylistParser.decimalFloat(durationText.trimmingCharacters(in: .whitespaces))
            else { throw malformed(line, "#EXTINF duration is not a decimal number: '\(durationText)'") }
            duration = seconds
        } else if let value = HLSPlaylistParser.tagValue(text, "#EXT-X-TARGETDURATION") {
            guard let seconds = HLSPlaylistParser.decimalFloat(value) else {
                throw malformed(line, "#EXT-X-TARGETDURATION is not a number: '\(value)'")
            }
            targetDuration = seconds
        } else if let value = HLSPlaylistParser.tagValue(text, "#EXT-X-MEDIA-SEQUENCE") {
            // Before the first segment (RFC 8216 §4.3.3.2): the segments already listed are numbered from it.
            try beforeFirstSegment("#EXT-X-MEDIA-SEQUENCE", line)
            mediaSequence = try integer(value, of: "#EXT-X-MEDIA-SEQUENCE", line)
        } else if let value = HLSPlaylistParser.tagValue(text, "#EXT-X-DISCONTINUITY-SEQUENCE") {
            try beforeFirstSegment("#EXT-X-DISCONTINUITY-SEQUENCE", line)
            discontinuitySequence = try integer(value, of: "#EXT-X-DISCONTINUITY-SEQUENCE", line)
        } else if text == "#EXT-X-DISCONTINUITY" {
            discontinuity = true
        } else if let value = HLSPlaylistParser.tagValue(text, "#EXT-X-PROGRAM-DATE-TIME") {
            guard let date = Self.date(value) else {
                throw malformed(line, "#EXT-X-PROGRAM-DATE-TIME is not an ISO 8601 date and time: '\(value)'")
            }
            programDate = date
        } else if let value = HLSPlaylistParser.tagValue(text, "#EXT-X-BYTERANGE") {
            let (length, offset) = try byteRange(value, line)
            range = (line.number, length, offset)
        } else if let value = HLSPlaylistParser.tagValue(text, "#EXT-X-MAP") {
            let attributes = try HLSAttributeList(value, line: line.number, url: url)
            let uri = try ManifestURI.resolve(try attributes.required("URI", of: "#EXT-X-MAP"), against: url)
            var mapRange: ByteRange?
            if let rangeText = attributes["BYTERANGE"] {
                let (length, offset) = try byteRange(Substring(rangeText), line)
                mapRange = ByteRange(offset: offset ?? 0, length: length)
            }
            // Under the key in effect here, if any (RFC 8216 4.3.2.4); a key declared after it does not apply to it.
            map = InitializationSection(url: uri, byteRange: mapRange, key: key)
        } else if let value = HLSPlaylistParser.tagValue(text, "#EXT-X-KEY") {
            key = try segmentKey(HLSAttributeList(value, line: line.number, url: url))
        } else if let value = HLSPlaylistParser.tagValue(text, "#EXT-X-PLAYLIST-TYPE") {
            guard value == "VOD" || value == "EVENT" else {
                throw malformed(line, "#EXT-X-PLAYLIST-TYPE is neither VOD nor EVENT: '\(value)'")
            }
            playlistType = String(value)
        } else if text == "#EXT-X-ENDLIST" {
            hasEndList = true
        } else if HLSPlaylistParser.tagValue(text, "#EXT-X-STREAM-INF") != nil
            || HLSPlaylistParser.tagValue(text, "#EXT-X-MEDIA") != nil
        {
            throw malformed(line, "a master playlist tag in a media playlist")
        }
        // Other tags and comments: ignored.
    }

    /// A URI line: the segment the tags before it described.
    private mutating func segment(uri: String, line: Int) throws(MediaError) {
        guard let duration else { throw malformed(line, "a segment URI without #EXTINF before it") }
        // A date named for it, else the running one (none across a discontinuity: the timeline may jump there).
        let date = programDate ?? (discontinuity ? nil : runningDate)
        runningDate = date.map { $0 + duration }
        programDate = nil
        let resolved = try ManifestURI.resolve(uri, against: url)
        var byteRange: ByteRange?
        if let range {
            let offset: Int64
            if let given = range.offset {
                offset = given
            } else if let end = rangeEnds[resolved] {
                offset = end
            } else {
                throw HLSPlaylistParser.malformed(
                    url, range.line, "#EXT-X-BYTERANGE without an offset, and no earlier range of '\(uri)'")
            }
            let (end, overflow) = offset.addingReportingOverflow(range.length)
            guard !overflow else { throw HLSPlaylistParser.malformed(url, range.line, "byte range too large") }
            byteRange = ByteRange(offset: offset, length: range.length)
            rangeEnds[resolved] = end
        }
        segments.append(
            Segment(
                url: resolved, byteRange: byteRange, duration: duration, start: start,
                sequence: mediaSequence + segments.count, discontinuity: discontinuity, initialization: map,
                key: key, programDate: date))
        start += duration
        self.duration = nil
        self.range = nil
        discontinuity = false
    }

    /// An ISO 8601 date and time with a time zone (`2026-12-03T14:00:00.000Z`, `...+01:00`, or ffmpeg's `...+0000`),
    /// in seconds since 1970.
    static func date(_ text: Substring) -> Double? {
        var text = String(text)
        // A zone offset without its colon (ISO 8601's basic form, as ffmpeg writes it): the extended form.
        let zone = text.suffix(5)
        if zone.count == 5, zone.first == "+" || zone.first == "-", zone.dropFirst().allSatisfy(\.isNumber) {
            text = text.dropLast(2) + ":" + text.suffix(2)
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)?.timeIntervalSince1970
    }

    /// `#EXT-X-KEY`: nil for `METHOD=NONE`, an AES-128 key, or a refusal of what the engine does not decrypt.
    private func segmentKey(_ attributes: HLSAttributeList) throws(MediaError) -> SegmentKey? {
        let method = try attributes.required("METHOD", of: "#EXT-X-KEY")
        let format = attributes["KEYFORMAT"] ?? "identity"
        if method == "NONE" { return nil }
        guard method == "AES-128", format == "identity" else {
            let scheme = format == "identity" ? method : "\(method) (KEYFORMAT \(format))"
            throw MediaError(
                .refusedByPolicy, url: url, operation: .open,
                reason: "line \(attributes.line): content protection \(scheme) is not supported (only AES-128)")
        }
        let uri = try ManifestURI.resolve(try attributes.required("URI", of: "#EXT-X-KEY"), against: url)
        return SegmentKey(url: uri, iv: try attributes.iv("IV"))
    }

    /// `<length>[@<offset>]`.
    private func byteRange(_ text: Substring, _ line: HLSLine) throws(MediaError) -> (Int64, Int64?) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2, let length = HLSPlaylistParser.decimalInteger(parts[0]) else {
            throw malformed(line, "byte range is not <length>[@<offset>]: '\(text)'")
        }
        guard parts.count == 2 else { return (Int64(length), nil) }
        guard let offset = HLSPlaylistParser.decimalInteger(parts[1]) else {
            throw malformed(line, "byte range offset is not a decimal integer: '\(text)'")
        }
        return (Int64(length), Int64(offset))
    }

    private func beforeFirstSegment(_ tag: String, _ line: HLSLine) throws(MediaError) {
        guard segments.isEmpty else { throw malformed(line, "\(tag) after the first segment") }
    }

    private func integer(_ text: Substring, of tag: String, _ line: HLSLine) throws(MediaError) -> Int {
        guard let value = HLSPlaylistParser.decimalInteger(text) else {
            throw malformed(line, "\(tag) is not a decimal integer: '\(text)'")
        }
        return value
    }

    private func malformed(_ line: HLSLine, _ reason: String) -> MediaError {
        HLSPlaylistParser.malformed(url, line.number, reason)
    }

    private func malformed(_ line: Int, _ reason: String) -> MediaError {
        HLSPlaylistParser.malformed(url, line, reason)
    }
}

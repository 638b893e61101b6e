import Foundation
import MediaCore

/// What an HLS playlist is: a master playlist (the variants and renditions) or a media playlist (the segments).
public enum HLSPlaylist: Sendable, Equatable {
    case master(Presentation)
    case media(MediaPlaylist)
}

/// Reads HLS playlists (RFC 8216) into the model: a pure function from text to ``HLSPlaylist``.
///
/// Lines may end in LF or CRLF, the text may start with a byte order mark, blank lines and comments are skipped and
/// unknown tags ignored. Every URI is resolved with ``ManifestURI/resolve(_:against:)`` (a remote playlist may name
/// only http(s) URIs). Errors are `.malformedManifest` naming the line, or `.refusedByPolicy` for a URI or a
/// content protection the engine does not follow (SAMPLE-AES, FairPlay, Widevine).
public enum HLSPlaylistParser {
    /// Parses the playlist `text` found at `url`: a master playlist when it has `#EXT-X-STREAM-INF`, else a media
    /// playlist.
    public static func parse(_ text: String, url: String) throws(MediaError) -> HLSPlaylist {
        let lines = HLSLine.split(text)
        guard let first = lines.first, first.text == "#EXTM3U" else {
            throw malformed(url, 1, "not an HLS playlist: the first line is not #EXTM3U")
        }
        // The tag itself, not a longer name that starts with it (`#EXT-X-STREAM-INFX`), which is an unknown tag.
        if lines.contains(where: { tagValue($0.text, "#EXT-X-STREAM-INF") != nil }) {
            return .master(try parseMaster(lines, url: url))
        }
        return .media(try HLSMediaPlaylistReader.read(lines, url: url))
    }

    /// Parses the playlist `text` at `url` as a presentation: a master playlist's, or one of a single variant for a
    /// media playlist given alone (see ``presentation(of:url:)``).
    public static func parsePresentation(_ text: String, url: String) throws(MediaError) -> Presentation {
        switch try parse(text, url: url) {
        case .master(let presentation): return presentation
        case .media(let playlist): return presentation(of: playlist, url: url)
        }
    }

    /// A presentation of one variant for a media playlist given alone: bandwidth 0 (unknown); its segments when the
    /// list is complete (VOD), else the playlist's URL, to be reloaded.
    public static func presentation(of playlist: MediaPlaylist, url: String) -> Presentation {
        let media: MediaReference = playlist.hasEnd ? .segments(playlist) : .playlist(url: url)
        return Presentation(format: .hls, url: url, variants: [Variant(id: "0", bandwidth: 0, media: media)])
    }

    // MARK: - Master playlists

    private static func parseMaster(_ lines: [HLSLine], url: String) throws(MediaError) -> Presentation {
        var variants: [(index: Int, variant: Variant)] = []
        var renditions: [Rendition] = []
        var independent = false
        var pending: (line: Int, attributes: HLSAttributeList)?
        for line in lines.dropFirst() {
            let text = line.text
            if text.isEmpty { continue }
            if !text.hasPrefix("#") {
                guard let stream = pending else { continue }  // A URI line of no variant: nothing to attach it to.
                let attributes = stream.attributes
                guard let bandwidth = try attributes.integer("BANDWIDTH") else {
                    throw malformed(url, stream.line, "#EXT-X-STREAM-INF without BANDWIDTH")
                }
                let variant = Variant(
                    id: String(variants.count), bandwidth: bandwidth,
                    averageBandwidth: try attributes.integer("AVERAGE-BANDWIDTH"),
                    resolution: try attributes.resolution("RESOLUTION"), codecs: attributes["CODECS"],
                    frameRate: try attributes.decimal("FRAME-RATE"), audioGroup: attributes["AUDIO"],
                    subtitlesGroup: attributes["SUBTITLES"],
                    media: .playlist(url: try ManifestURI.resolve(text, against: url)))
                variants.append((variants.count, variant))
                pending = nil
            } else if let value = tagValue(text, "#EXT-X-STREAM-INF") {
                if let previous = pending {
                    throw malformed(url, previous.line, "#EXT-X-STREAM-INF without a URI line after it")
                }
                let attributes = try HLSAttributeList(value, line: line.number, url: url)
                guard attributes["BANDWIDTH"] != nil else {
                    throw malformed(url, line.number, "#EXT-X-STREAM-INF without BANDWIDTH")
                }
                pending = (line.number, attributes)
            } else if let value = tagValue(text, "#EXT-X-MEDIA") {
                if let rendition = try rendition(HLSAttributeList(value, line: line.number, url: url), url: url) {
                    renditions.append(rendition)
                }
            } else if text == "#EXT-X-INDEPENDENT-SEGMENTS" {
                independent = true
            }
        }
        if let stream = pending {
            throw malformed(url, stream.line, "#EXT-X-STREAM-INF without a URI line after it")
        }
        // hls.js's rule: a variant of audio only (its CODECS all audio, no RESOLUTION) beside variants with video is
        // not a rung of the ladder (ffmpeg's `var_stream_map` with `agroup` lists its audio rendition as one too).
        if variants.contains(where: { !isAudioOnly($0.variant) }) { variants.removeAll { isAudioOnly($0.variant) } }
        let sorted = variants.sorted { ($0.variant.bandwidth, $0.index) < ($1.variant.bandwidth, $1.index) }
        return Presentation(
            format: .hls, url: url, variants: sorted.map(\.variant), renditions: renditions,
            independentSegments: independent)
    }

    /// Whether `variant` carries audio only: no RESOLUTION, and a CODECS list of audio codecs only (AAC and MP3
    /// `mp4a`, AC-3, E-AC-3, Opus, FLAC, ALAC).
    static func isAudioOnly(_ variant: Variant) -> Bool {
        guard variant.resolution == nil, let codecs = variant.codecs else { return false }
        let audio = ["mp4a", "ac-3", "ec-3", "opus", "flac", "alac"]
        let list = codecs.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return !list.isEmpty && list.allSatisfy { codec in audio.contains { codec.hasPrefix($0) } }
    }

    /// An `#EXT-X-MEDIA` rendition, or nil for a type the model has no place for (VIDEO).
    private static func rendition(_ attributes: HLSAttributeList, url: String) throws(MediaError) -> Rendition? {
        let type = try attributes.required("TYPE", of: "#EXT-X-MEDIA")
        let kind: Rendition.Kind
        switch type {
        case "AUDIO": kind = .audio
        case "SUBTITLES": kind = .subtitles
        case "CLOSED-CAPTIONS": kind = .closedCaptions
        case "VIDEO": return nil
        default: throw malformed(url, attributes.line, "#EXT-X-MEDIA of unknown TYPE '\(type)'")
        }
        var media: MediaReference?
        // Closed captions are in the video's own segments: a URI there is not followed.
        if kind != .closedCaptions, let uri = attributes["URI"] {
            media = .playlist(url: try ManifestURI.resolve(uri, against: url))
        }
        return Rendition(
            kind: kind, groupID: try attributes.required("GROUP-ID", of: "#EXT-X-MEDIA"),
            name: try attributes.required("NAME", of: "#EXT-X-MEDIA"), language: attributes["LANGUAGE"],
            isDefault: try attributes.flag("DEFAULT"), isAutoselect: try attributes.flag("AUTOSELECT"),
            isForced: kind == .subtitles ? try attributes.flag("FORCED") : false, media: media)
    }

    // MARK: - Shared helpers

    /// What follows `tag:` on `line` (empty when the tag has no value), or nil when the line is another tag.
    static func tagValue(_ line: String, _ tag: String) -> Substring? {
        guard line.hasPrefix(tag) else { return nil }
        let rest = line.dropFirst(tag.count)
        if rest.isEmpty { return rest }
        return rest.first == ":" ? rest.dropFirst() : nil
    }

    static func malformed(_ url: String, _ line: Int, _ reason: String) -> MediaError {
        MediaError(.malformedManifest, url: url, operation: .probe, reason: "line \(line): \(reason)")
    }

    /// A decimal integer (digits only, at most 18 of them).
    static func decimalInteger<S: StringProtocol>(_ text: S) -> Int? {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// A non-negative decimal float (digits with at most one point; no sign, exponent, `nan` or `inf`).
    static func decimalFloat<S: StringProtocol>(_ text: S) -> Double? {
        guard !text.isEmpty, text.count <= 40, text.filter({ $0 == "." }).count <= 1,
            text.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." }), text != "."
        else { return nil }
        return Double(String(text))
    }
}

/// One line of a playlist: its 1-based number and its text without the line ending.
struct HLSLine {
    let number: Int
    let text: String
}

extension HLSLine {
    /// The lines of `text` (LF, CRLF or CR endings; a leading byte order mark dropped), each trimmed of surrounding
    /// white space.
    static func split(_ text: String) -> [HLSLine] {
        var body = Substring(text)
        if body.unicodeScalars.first == "\u{FEFF}" { body = Substring(body.unicodeScalars.dropFirst()) }
        return body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated().map {
            HLSLine(number: $0.offset + 1, text: $0.element.trimmingCharacters(in: .whitespaces))
        }
    }
}

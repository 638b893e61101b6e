import MediaIO
import PlayctlOutput
import Streaming

/// `playctl probe FILE [--json]`: the container, duration and tracks of a media file, as text or one JSON object.
extension ProbeCommand: PlayctlCommand {
    /// Opens the file and prints its description.
    func run(_ output: StandardOutput) throws(CommandFailure) {
        let location = try MediaLocation(
            path, cache: cache, decryptionKey: decryptionKey, limits: limits.abrLimits)
        let opened = try media { () throws(MediaError) in try location.open(audioRendition: true) }
        defer { opened.close() }
        let report = ProbeReport(opened.demuxer, presentation: opened.presentation, audio: opened.audioDemuxer)
        if printsJSON {
            try output.json(report.json)
        } else {
            for line in report.textLines { try output.line(line) }
        }
    }
}

/// What `probe` reports about one open file, rendered as JSON or as aligned text.
///
/// The JSON object has `file`, `format`, `duration` (seconds, or null when the container does not say),
/// `startTime` (seconds: where the container's timestamps start) and `tracks`: one object per stream with
/// `index`, `kind`, `codec`, `timeBase` (`"1/15360"`), `duration` when known, and
/// - for video: `width`, `height` (coded), `displayWidth`, `displayHeight` (as shown, after `rotation`),
///   `rotation` (clockwise degrees), `frameRate`, `pixelFormat`;
/// - for audio: `sampleRate`, `channels`, `channelLayout`;
/// - for subtitles: `bitmap` (pictures, listed but not rendered);
/// - for every track: `language` and `title` when tagged, `default` and `forced` (the container's flags).
///
/// For an HLS or DASH manifest, `format` is `hls` or `dash`, `container` the segments' format, the tracks and
/// duration are the stream's as the demuxer reads it (the variant the ABR starts with; then the tracks of the audio
/// rendition it plays with when its audio is in one of its own, numbered after the variant's), and `variants` and
/// `renditions` list what the manifest offers (see ProbeReport+Presentation.swift).
struct ProbeReport {
    let file: String
    let format: String
    let duration: MediaTime?
    let startMicroseconds: Int64
    let tracks: [TrackInfo]
    /// Tags, chapters and artwork.
    let metadata: MediaMetadata
    /// Tracks that are attached pictures (cover art), not videos.
    let artworkTracks: Set<Int>
    /// What an HLS or DASH manifest offers (nil for other media).
    let presentation: Presentation?
    /// The format of the demuxed bytes (an adaptive stream's segments: `mpegts`, `mov,mp4,m4a,3gp,3g2,mj2`).
    let container: String

    /// The report of an open demuxer, over the stream of `presentation` when given, with the tracks of `audio` (an
    /// adaptive presentation's audio rendition) after its own.
    init(_ demuxer: Demuxer, presentation: Presentation? = nil, audio: Demuxer? = nil) {
        file = demuxer.url
        format = presentation?.format.rawValue ?? demuxer.formatName
        container = demuxer.formatName
        self.presentation = presentation
        duration = demuxer.duration
        startMicroseconds = demuxer.startTime
        let offset = demuxer.tracks.count
        tracks =
            demuxer.tracks
            + (audio?.tracks ?? []).map { track in
                var listed = track
                listed.index += offset
                return listed
            }
        metadata = demuxer.metadata
        artworkTracks = Set(demuxer.tracks.map(\.index).filter { demuxer.isArtwork($0) })
    }

    // MARK: JSON

    /// The report as one JSON object.
    var json: JSONValue {
        var members: [(String, JSONValue)] = [("file", .string(file)), ("format", .string(format))]
        if presentation != nil { members.append(("container", .string(container))) }
        members += [
            ("duration", duration.map { .double($0.seconds) } ?? .null),
            ("startTime", .double(Double(startMicroseconds) / 1_000_000)),
            ("tracks", .array(tracks.map { Self.json(for: $0, artwork: artworkTracks.contains($0.index)) })),
            ("metadata", .object(metadata.tags.map { ($0.key, .string($0.value)) })),
            (
                "chapters",
                .array(
                    metadata.chapters.map { chapter in
                        .object([
                            ("start", .double(chapter.start.seconds)), ("end", .double(chapter.end.seconds)),
                            ("title", chapter.title.map(JSONValue.string) ?? .null),
                        ])
                    })
            ),
            (
                "artwork",
                metadata.artwork.map { artwork in
                    .object([
                        ("codec", .string(artwork.codec)), ("width", .int(artwork.width)),
                        ("height", .int(artwork.height)), ("bytes", .int(artwork.bytes.count)),
                    ])
                } ?? .null
            ),
        ]
        if let presentation {
            members.append(("variants", .array(presentation.variants.map(Self.json(for:)))))
            members.append(("renditions", .array(presentation.renditions.map(Self.json(for:)))))
        }
        return .object(members)
    }

    static func json(for track: TrackInfo, artwork: Bool = false) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("index", .int(track.index)),
            ("kind", .string(track.kind.rawValue)),
            ("codec", .string(track.codec)),
            ("timeBase", .string("\(track.timeBase.num)/\(track.timeBase.den)")),
        ]
        if let duration = track.duration { members.append(("duration", .double(duration.seconds))) }
        if artwork { members.append(("attachedPicture", .bool(true))) }
        switch track.kind {
        case .video:
            members.append(("width", optional(track.width)))
            members.append(("height", optional(track.height)))
            members.append(("displayWidth", optional(track.displaySize?.width)))
            members.append(("displayHeight", optional(track.displaySize?.height)))
            members.append(("rotation", .int(track.rotation)))
            members.append(("frameRate", track.frameRate.map(JSONValue.double) ?? .null))
            members.append(("pixelFormat", track.pixelFormat.map(JSONValue.string) ?? .null))
        case .audio:
            members.append(("sampleRate", optional(track.sampleRate)))
            members.append(("channels", optional(track.channels)))
            members.append(("channelLayout", track.channelLayout.map(JSONValue.string) ?? .null))
        case .subtitle:
            members.append(("bitmap", .bool(track.isBitmapSubtitle)))
        case .other:
            break
        }
        if let language = track.language { members.append(("language", .string(language))) }
        if let title = track.title { members.append(("title", .string(title))) }
        members.append(("default", .bool(track.isDefault)))
        members.append(("forced", .bool(track.isForced)))
        return .object(members)
    }

    private static func optional(_ value: Int?) -> JSONValue {
        value.map(JSONValue.int) ?? .null
    }

    // MARK: Text

    /// The report as aligned lines: file, format, duration, start, then one line per track.
    var textLines: [String] {
        var rows: [(String, String)] = [
            ("File:", file),
            ("Format:", presentation == nil ? format : "\(format) (segments: \(container))"),
            ("Duration:", duration.map { SecondsText.format($0) + " s" } ?? "unknown"),
            ("Start:", SecondsText.format(microseconds: startMicroseconds) + " s"),
        ]
        rows += presentationRows
        for track in tracks {
            let text =
                Self.text(for: track) + (artworkTracks.contains(track.index) ? " (attached picture: artwork)" : "")
            rows.append(("Track #\(track.index):", text))
        }
        for (label, value) in [
            ("Title:", metadata.title), ("Artist:", metadata.artist), ("Album:", metadata.albumName),
            ("Date:", metadata.creationDate),
        ] {
            if let value { rows.append((label, value)) }
        }
        if let artwork = metadata.artwork {
            rows.append(
                ("Artwork:", "\(artwork.codec) \(artwork.width)x\(artwork.height), \(artwork.bytes.count) bytes"))
        }
        for (number, chapter) in metadata.chapters.enumerated() {
            let span = SecondsText.format(chapter.start) + " - " + SecondsText.format(chapter.end) + " s"
            rows.append(("Chapter \(number + 1):", span + (chapter.title.map { " " + $0 } ?? "")))
        }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { label, value in
            label + String(repeating: " ", count: width - label.count + 2) + value
        }
    }

    static func text(for track: TrackInfo) -> String {
        var parts = ["\(track.kind.rawValue) \(track.codec)"]
        switch track.kind {
        case .video:
            if let width = track.width, let height = track.height {
                var size = "\(width)x\(height)"
                if track.rotation != 0, let shown = track.displaySize {
                    size += " shown as \(shown.width)x\(shown.height) (rotated \(track.rotation) degrees)"
                }
                parts.append(size)
            }
            if let pixelFormat = track.pixelFormat { parts.append(pixelFormat) }
            if let rate = track.frameRate { parts.append(DecimalText.format(rate) + " fps") }
        case .audio:
            if let rate = track.sampleRate { parts.append("\(rate) Hz") }
            if let channels = track.channels {
                let layout = track.channelLayout.map { " (\($0))" } ?? ""
                parts.append("\(channels) channel\(channels == 1 ? "" : "s")" + layout)
            }
        case .subtitle:
            if track.isBitmapSubtitle { parts.append("bitmap (listed, not rendered)") }
        case .other:
            break
        }
        if let duration = track.duration { parts.append(SecondsText.format(duration) + " s") }
        parts.append("time base \(track.timeBase.num)/\(track.timeBase.den)")
        if let language = track.language { parts.append("language \(language)") }
        if let title = track.title { parts.append("title \"\(title)\"") }
        if track.isDefault { parts.append("default") }
        if track.isForced { parts.append("forced") }
        return parts.joined(separator: ", ")
    }
}

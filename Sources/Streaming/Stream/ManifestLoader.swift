import Foundation
import Loading
import MediaCore

/// Reads a manifest URL into a ``Presentation``: an HLS master or media playlist, or a DASH MPD (told apart by
/// their text, not their names), and the media playlists of the variants as they are needed.
enum ManifestLoader {
    /// The presentation at `url`. A lone HLS media playlist is a presentation of one variant. `now` (seconds since
    /// 1970) is the wall clock a dynamic MPD's segments are computed at.
    static func presentation(
        _ url: String, loading: RemoteLoading, priority: TransferPriority = .playback,
        now: Double = Date().timeIntervalSince1970
    ) throws(MediaError) -> Presentation {
        let bytes = try ResourceReader.bytes(url, loading: loading, priority: priority)
        return try presentation(bytes, url: url, now: now)
    }

    /// The presentation at `url` read at the origin's clock: a live MPD's `UTCTiming` (``DASHClockSync``) is read
    /// before its segments are computed, and the offset of the origin's clock from `wallClock` is returned with the
    /// presentation (0 without one, or when none answers), for the session's later reloads.
    static func synchronizedPresentation(
        _ url: String, loading: RemoteLoading, wallClock: () -> Double
    ) throws(MediaError) -> (presentation: Presentation, clockOffset: Double) {
        let bytes = try ResourceReader.bytes(url, loading: loading)
        // Only a live MPD reads a clock: a static one (or a playlist) is not parsed a second time for it.
        let head = String(decoding: bytes.prefix(2048), as: UTF8.self)
        let timings = isDASH(head) && head.contains("dynamic") ? DASHManifestParser.utcTimings(bytes, url: url) : []
        let offset = DASHClockSync.offset(timings, mpdURL: url, loading: loading, localClock: wallClock) ?? 0
        return (try presentation(bytes, url: url, now: wallClock() + offset), offset)
    }

    static func presentation(
        _ bytes: [UInt8], url: String, now: Double = Date().timeIntervalSince1970
    ) throws(MediaError) -> Presentation {
        let text = String(decoding: bytes, as: UTF8.self)
        if isDASH(text) { return try DASHManifestParser.parse(text, url: url, now: now) }
        switch try HLSPlaylistParser.parse(text, url: url) {
        case .master(let presentation): return presentation
        case .media(let playlist):
            return Presentation(
                format: .hls, url: url,
                variants: [Variant(id: "0", bandwidth: 0, media: .segments(playlist))])
        }
    }

    /// The segments of `media`: listed already, or an HLS media playlist to load, or a DASH file's `sidx`.
    static func playlist(
        _ media: MediaReference, loading: RemoteLoading, priority: TransferPriority = .playback
    ) throws(MediaError) -> MediaPlaylist {
        switch media {
        case .segments(let playlist): return playlist
        case .playlist(let url):
            let text = try ResourceReader.text(url, loading: loading, priority: priority)
            switch try HLSPlaylistParser.parse(text, url: url) {
            case .media(let playlist): return playlist
            case .master:
                throw MediaError(
                    .malformedManifest, url: url, operation: .probe,
                    reason: "a master playlist where a variant's media playlist was expected")
            }
        case .indexed(let url, let initialization, let index):
            let bytes = try ResourceReader.bytes(url, range: index, loading: loading, priority: priority)
            let segments = try SegmentIndexParser.parse(
                bytes, boxEnd: index.end, url: url,
                initialization: InitializationSection(url: url, byteRange: initialization))
            return MediaPlaylist(
                kind: .vod, targetDuration: segments.map(\.duration).max() ?? 0, segments: segments, hasEnd: true)
        }
    }

    /// Whether `text` is an MPD (XML whose root is `MPD`) rather than a playlist.
    static func isDASH(_ text: String) -> Bool {
        let head = text.prefix(2048)
        return !head.hasPrefix("#EXTM3U") && head.contains("<MPD")
    }
}

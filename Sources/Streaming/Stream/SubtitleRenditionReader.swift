import Loading
import MediaCore

/// Reads a subtitle rendition's media playlist and its segments (WebVTT files) through `Loading`: the item's loader,
/// its byte cache, its typed errors. Blocking: call on a thread of your own.
public struct SubtitleRenditionReader: Sendable {
    public let rendition: Rendition
    let loading: RemoteLoading

    /// The largest a subtitle segment may be: WebVTT segments are text of a few kilobytes.
    public static let segmentByteLimit = 1 << 20

    /// A reader of `rendition` (one with a media playlist: ``Presentation/subtitleRenditions(for:)``).
    public init(rendition: Rendition, loading: RemoteLoading) {
        self.rendition = rendition
        self.loading = loading
    }

    /// The media playlist's URL.
    public var playlistURL: String {
        if case .playlist(let url)? = rendition.media { return url }
        return ""
    }

    /// The rendition's segments (its media playlist loaded; `opened` is called with the source the fetch reads).
    /// - Throws: the loader's errors naming the playlist (a 404 is `.httpStatus`); `.malformedManifest` for a
    ///   playlist that does not parse, lists no segment, or has no end (live subtitles are not played).
    public func playlist(opened: @Sendable (RemoteByteSource) -> Void = { _ in }) throws(MediaError) -> MediaPlaylist {
        guard case .playlist(let url)? = rendition.media else {
            throw MediaError(
                .malformedManifest, url: playlistURL, operation: .probe,
                reason: "the subtitle rendition '\(rendition.name)' names no media playlist")
        }
        let playlist: MediaPlaylist
        switch try HLSPlaylistParser.parse(ResourceReader.text(url, loading: loading, opened: opened), url: url) {
        case .media(let media): playlist = media
        case .master:
            throw MediaError(
                .malformedManifest, url: url, operation: .probe,
                reason: "a master playlist where a subtitle rendition's media playlist was expected")
        }
        guard !playlist.segments.isEmpty, playlist.hasEnd else {
            throw MediaError(
                .malformedManifest, url: playlistURL, operation: .probe,
                reason: playlist.segments.isEmpty
                    ? "the subtitle playlist lists no segment" : "live subtitle playlists are not played")
        }
        return playlist
    }

    /// The bytes of `segment`, through the loader (``ResourceReader``); `opened` is called with the source the
    /// fetch reads, before it reads (so that its owner can tell whether it waits for a manual clock, or close it).
    /// - Throws: the loader's errors naming the segment's URL; `.malformedManifest` for a segment larger than
    ///   ``segmentByteLimit``.
    public func bytes(
        of segment: Segment, opened: @Sendable (RemoteByteSource) -> Void = { _ in }
    ) throws(MediaError) -> [UInt8] {
        try ResourceReader.bytes(
            segment.url, range: segment.byteRange, limit: Self.segmentByteLimit, loading: loading, opened: opened)
    }
}

extension StreamSession {
    /// Readers of the subtitle renditions the play's first variant offers (``Presentation/subtitleRenditions(for:)``),
    /// through the session's loader; none for a live play (live subtitle playlists are not played).
    public var subtitleReaders: [SubtitleRenditionReader] {
        guard !isLive, let variant = withState({ $0.current }) else { return [] }
        return presentation.subtitleRenditions(for: variant).map {
            SubtitleRenditionReader(rendition: $0, loading: loading)
        }
    }
}

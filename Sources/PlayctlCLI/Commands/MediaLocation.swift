import Loading
import MediaIO
import Playback
import Streaming

/// What a command's FILE names, opened the way playctl opens it: a path or any URL FFmpeg reads by itself, an
/// http(s) URL read through playctl's loader and byte cache (never FFmpeg's HTTP), cached as `--cache-dir` and
/// `--cache-size` say, or an http(s) HLS playlist or DASH manifest read through a stream session (its segments
/// through the same loader), whose variant choice `--max-bitrate` and `--max-resolution` limit.
struct MediaLocation {
    let path: String
    /// For an http(s) URL: the cache and transport its bytes come through.
    let loading: RemoteLoading?
    /// The key of an MP4 encrypted with common encryption.
    let decryptionKey: String?
    /// The limits of an HLS or DASH presentation's variant choice (none by default).
    let limits: ABRLimits

    /// `path` with the cache `options` ask for, decrypted with `decryptionKey` when given, an adaptive
    /// presentation's variants chosen within `limits`.
    /// - Throws: `CommandFailure` when the cache directory cannot be made.
    init(
        _ path: String, cache options: CacheOptions, headers: [String: String] = [:], decryptionKey: String? = nil,
        limits: ABRLimits = ABRLimits()
    ) throws(CommandFailure) {
        self.path = path
        self.decryptionKey = decryptionKey
        self.limits = limits
        loading = RemoteLoading.isRemote(path) ? try Self.loading(cache: options, headers: headers) : nil
    }

    /// Whether FILE is an http(s) HLS playlist or DASH manifest (by its extension, as a player item decides).
    var isManifest: Bool { loading != nil && ManifestURI.isManifest(path) }

    /// A loader over a cache of its own, as `options` ask: in memory, and on disk with a directory; its requests
    /// send `headers` (`--header`).
    /// - Throws: `CommandFailure` when the cache directory cannot be made.
    static func loading(
        cache options: CacheOptions, headers: [String: String] = [:]
    ) throws(CommandFailure) -> RemoteLoading {
        do throws(MediaError) {
            let cache =
                try options.directory.map { directory throws(MediaError) in
                    try ByteCache(ByteCache.Configuration(directory: directory, diskLimit: options.size))
                } ?? ByteCache()
            return RemoteLoading(cache: cache, headers: headers)
        } catch {
            throw .media(error)
        }
    }

    /// The media opened for reading: a demuxer (probing it), over the stream of an adaptive presentation when FILE
    /// is a manifest, and with `audioRendition`, a demuxer of the presentation's audio rendition when its audio is
    /// one of its own (``StreamSession/audioRendition``). Close it when done (an adaptive stream downloads ahead until
    /// then).
    func open(audioRendition: Bool = false) throws(MediaError) -> OpenedMedia {
        guard isManifest, let loading else {
            return OpenedMedia(
                demuxer: try Demuxer(url: path, source: loading?.source(path), decryptionKey: decryptionKey),
                stream: nil)
        }
        let stream = try Self.stream(path, loading: loading, limits: limits)
        do throws(MediaError) {
            let demuxer = try Demuxer(url: path, source: stream, decryptionKey: decryptionKey)
            // The audio of a presentation whose audio is a rendition of its own: a demuxer of its own.
            var audio: Demuxer?
            if audioRendition, let rendition = stream.session.audioRendition {
                var url = path
                if case .playlist(let playlist)? = rendition.media { url = playlist }
                audio = try Demuxer(url: url, source: SegmentedStream(audioOf: stream.session))
            }
            if let audio { demuxer.shareStartTime(with: audio) }
            return OpenedMedia(demuxer: demuxer, stream: stream, audioDemuxer: audio)
        } catch {
            stream.close()
            throw error
        }
    }

    /// The segments of the variant the ABR machine starts with (within `limits`), as one stream: a first session
    /// tells which variant that is, and the stream read is pinned to it, so that a command reads one rendition from
    /// start to end (the downloads ahead would otherwise move the choice up on a fast link). The manifest and the
    /// playlist come from the loader's cache the second time.
    static func stream(
        _ url: String, loading: RemoteLoading, limits: ABRLimits
    ) throws(MediaError)
        -> SegmentedStream
    {
        let first = try StreamSession.open(url: url, loading: loading, limits: limits)
        let start = first.switches.first?.to.id
        first.close()
        var pinned = limits
        pinned.pinnedVariantID = start
        let session = try StreamSession.open(url: url, loading: loading, limits: pinned)
        return SegmentedStream(session: session, drivesDownloads: true)
    }

    /// A player item for the media, with `limits` as its peak bit rate and maximum resolution.
    func item() -> PlayerItem {
        let item = loading.map { PlayerItem(url: path, loading: $0) } ?? PlayerItem(url: path)
        item.decryptionKey = decryptionKey
        item.preferredPeakBitRate = limits.preferredPeakBitRate
        item.preferredMaximumResolution = limits.preferredMaximumResolution
        return item
    }
}

/// A demuxer over FILE, and the adaptive stream it reads when FILE is a manifest (with its presentation).
struct OpenedMedia {
    let demuxer: Demuxer
    /// The segments of an HLS or DASH presentation (nil for a file or a progressive URL).
    let stream: SegmentedStream?
    /// The demuxer of an HLS or DASH presentation's audio rendition when its audio is in one of its own
    /// (``StreamSession/audioRendition``): its tracks come after the variant's.
    var audioDemuxer: Demuxer? = nil

    /// What the manifest offers (nil for a file or a progressive URL).
    var presentation: Presentation? { stream?.session.presentation }

    /// A reader of the media's first video track.
    func videoReader() throws(MediaError) -> VideoFrameReader {
        try VideoFrameReader(demuxer: demuxer)
    }

    /// Stops the adaptive stream's downloads (nothing for other media).
    func close() {
        stream?.close()
    }
}

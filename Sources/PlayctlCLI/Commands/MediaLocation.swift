import Loading
import MediaIO
import Playback

/// What a command's FILE names, opened the way playctl opens it: a path or any URL FFmpeg reads by itself, or an
/// http(s) URL read through playctl's loader and byte cache (never FFmpeg's HTTP), cached as `--cache-dir` and
/// `--cache-size` say.
struct MediaLocation {
    let path: String
    /// For an http(s) URL: the cache and transport its bytes come through.
    let loading: RemoteLoading?
    /// The key of an MP4 encrypted with common encryption.
    let decryptionKey: String?

    /// `path` with the cache `options` ask for, decrypted with `decryptionKey` when given.
    /// - Throws: `CommandFailure` when the cache directory cannot be made.
    init(_ path: String, cache options: CacheOptions, decryptionKey: String? = nil) throws(CommandFailure) {
        self.path = path
        self.decryptionKey = decryptionKey
        loading = RemoteLoading.isRemote(path) ? try Self.loading(cache: options) : nil
    }

    /// A loader over a cache of its own, as `options` ask: in memory, and on disk with a directory.
    /// - Throws: `CommandFailure` when the cache directory cannot be made.
    static func loading(cache options: CacheOptions) throws(CommandFailure) -> RemoteLoading {
        do throws(MediaError) {
            let cache =
                try options.directory.map { directory throws(MediaError) in
                    try ByteCache(ByteCache.Configuration(directory: directory, diskLimit: options.size))
                } ?? ByteCache()
            return RemoteLoading(cache: cache)
        } catch {
            throw .media(error)
        }
    }

    /// A demuxer of the media (probing it).
    func demuxer() throws(MediaError) -> Demuxer {
        try Demuxer(url: path, source: loading?.source(path), decryptionKey: decryptionKey)
    }

    /// A reader of the media's first video track.
    func videoReader() throws(MediaError) -> VideoFrameReader {
        try VideoFrameReader(demuxer: demuxer())
    }

    /// A player item for the media.
    func item() -> PlayerItem {
        let item = loading.map { PlayerItem(url: path, loading: $0) } ?? PlayerItem(url: path)
        item.decryptionKey = decryptionKey
        return item
    }
}

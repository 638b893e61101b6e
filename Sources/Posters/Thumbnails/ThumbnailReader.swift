import Loading
import MediaIO

/// Makes thumbnails of one media on the calling thread (a generator's queue): the header read once, then for each
/// time the keyframe nearest it, found in the container's sample index and read alone (a remote file fetches that
/// sample's byte range, nothing else), or an exact frame decoded from the keyframe before it.
final class ThumbnailReader {
    let url: String
    let options: ThumbnailOptions
    let source: any ByteSource
    private let remote: RemoteByteSource?
    let demuxer: Demuxer
    /// The video's keyframes from the sample index (empty: the container does not list them with their sizes).
    let keyframes: [IndexedSample]
    private var keyframeDecoder: KeyframeDecoder?
    private var frameReader: VideoFrameReader?
    private let scaler: FilterScaler
    /// The colour tags of a (packed) tile, for its RGBA copy.
    private let colours: ColourTags?
    private let cache: PosterCache?

    /// Opens `url` (a path or an http(s) URL read through `loading`); thumbnails are kept in `cache` when given.
    /// - Throws: `MediaError` naming it: missing, not media, no video.
    init(url: String, options: ThumbnailOptions, loading: RemoteLoading, cache: PosterCache? = nil) throws(MediaError) {
        self.url = url
        self.options = options
        self.cache = cache
        if RemoteLoading.isRemote(url) {
            let remote = loading.source(url, readAhead: RemoteByteSource.minimumReadAhead)
            self.remote = remote
            source = remote
            let header = try HeaderFetch.read(remote, through: remote)
            // Opening reads the first samples (the streams' parameters): the first keyframe's, no further.
            if let first = FirstPictures.firstFrameBytes(header: header, totalLength: remote.size, url: url) {
                remote.setFetchLimit(max(first, Int64(header.count)))
            }
        } else {
            remote = nil
            source = try FileByteSource(path: url)
        }
        demuxer = try Demuxer(url: url, source: source)
        guard demuxer.videoTrack != nil else {
            throw MediaError(.noDecodableStream, url: url, operation: .probe, reason: "no video to make thumbnails of")
        }
        keyframes = demuxer.indexedKeyframes()
        // The scaled tile's: the stream's matrix, in limited range.
        colours = demuxer.videoColours?.matrixOnly
        scaler = FilterScaler(width: options.width, height: options.height, algorithm: options.algorithm)
    }

    /// The media's duration in seconds (0 when the container does not say).
    var duration: Double { demuxer.duration?.seconds ?? 0 }

    /// The index of the keyframe nearest `seconds` (the earlier of two as near), or nil without a sample index.
    func nearestKeyframe(to seconds: Double) -> Int? {
        guard !keyframes.isEmpty else { return nil }
        var low = 0
        var high = keyframes.count
        while low < high {
            let mid = (low + high) / 2
            if keyframes[mid].seconds < seconds { low = mid + 1 } else { high = mid }
        }
        if low == keyframes.count { return low - 1 }
        if low == 0 { return 0 }
        return seconds - keyframes[low - 1].seconds <= keyframes[low].seconds - seconds ? low - 1 : low
    }

    /// The thumbnail for `seconds`: from the cache when it holds it (the same keyframe, or an exact frame asked for
    /// the same time), else read, decoded, scaled and kept there.
    func thumbnail(at seconds: Double) throws(MediaError) -> Thumbnail {
        let keyframe = options.exact ? nil : nearestKeyframe(to: seconds)
        let key = cacheKey(seconds: seconds, keyframe: keyframe.map { keyframes[$0] })
        if let key, let kept = cache?.poster(for: key) {
            return Thumbnail(
                requestedSeconds: seconds, time: kept.time, image: kept.image,
                rgba: try kept.image.converted(to: .rgba, colours: colours),
                keyframeOffset: keyframe.map { keyframes[$0].offset },
                fromCache: true)
        }
        let frame: VideoFrame
        var offset: Int64?
        if let index = keyframe {
            let keyframe = keyframes[index]
            if keyframeDecoder == nil { keyframeDecoder = try KeyframeDecoder(demuxer: demuxer) }
            remote?.setFetchLimit(keyframe.end)
            frame = try keyframeDecoder!.decode(
                keyframe, next: index + 1 < keyframes.count ? keyframes[index + 1] : nil)
            offset = keyframe.offset
        } else {
            frame = try exactOrKeyframe(at: seconds)
        }
        // Scaled once from the decoded picture; the RGBA copy converted from the small one.
        let image = try scaler.scale(frame, url: url)
        if let key, let cache {
            cache.insert(
                Poster(
                    image: image, sourceWidth: frame.width, sourceHeight: frame.height, decodedWidth: frame.width,
                    decodedHeight: frame.height, time: frame.time, key: key, timings: PosterTimings(),
                    fromCache: false))
        }
        return Thumbnail(
            requestedSeconds: seconds, time: frame.time, image: image,
            rgba: try image.converted(to: .rgba, colours: colours),
            keyframeOffset: offset, fromCache: false)
    }

    /// The cache's key for a thumbnail: of the keyframe (by its byte position and time) or, for an exact frame or a
    /// container without a sample index, of the time asked for; with the size and the scaling algorithm. The picture
    /// kept is the YUV one (the RGBA copy is converted again, to the same bytes).
    private func cacheKey(seconds: Double, keyframe: IndexedSample?) -> PosterKey? {
        guard cache != nil else { return nil }
        let size = "\(options.width)x\(options.height) \(options.algorithm)"
        guard let keyframe else {
            return PosterKey(
                thumbnailOf: url, variant: "\(seconds)\(options.exact ? "" : " at or before") \(size) yuv420p")
        }
        return PosterKey(thumbnailOf: url, variant: "keyframe@\(keyframe.offset) \(size) yuv420p")
    }

    /// The frame on screen at `seconds` (exact), or the keyframe at or before it (a container without a sample
    /// index), by a seek of the frame reader: fetches run as playback's do.
    private func exactOrKeyframe(at seconds: Double) throws(MediaError) -> VideoFrame {
        if frameReader == nil {
            remote?.setFetchLimit(nil)
            remote?.setReadAhead(RemoteByteSource.defaultReadAhead)
            frameReader = try VideoFrameReader(demuxer: demuxer)
        }
        let time = MediaTime(printedSeconds: min(max(seconds, 0), max(duration, 0)))
        let landing = try frameReader!.seek(to: time, mode: options.exact ? .exact : .keyframe)
        if let frame = landing.frame { return frame }
        if let frame = try frameReader!.nextFrame() { return frame }
        throw MediaError(.decodeFailed, url: url, operation: .decode, reason: "no frame at \(seconds) s")
    }

    func close() { source.close() }
}

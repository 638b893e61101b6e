import Dispatch
import Loading
import MediaIO

/// Thumbnails of one video for a seek bar: ``thumbnail(at:)`` for the time under the finger, ``thumbnails(every:)``
/// for a whole storyboard. Keyframes by default, each decoded from its own sample only (a remote video fetches the
/// header and the byte ranges of those samples); exact frames with ``ThumbnailOptions/exact``.
///
/// The work runs on a thread of its own (a serial dispatch queue), one thumbnail at a time, never on Swift's
/// cooperative pool; requests queue in order. Given a ``PosterCache`` (a ``PosterPipeline``'s, to share one memory
/// budget with the posters), each thumbnail is kept there, and one asked again (the same keyframe, or for an exact
/// frame the same time) comes from it without reading or decoding: a finger going back over the seek bar.
public final class ThumbnailGenerator: Sendable {
    /// The path or URL.
    public let url: String
    public let options: ThumbnailOptions
    private let loading: RemoteLoading
    /// Where thumbnails are kept (nil: none are).
    public let cache: PosterCache?
    private let queue = DispatchQueue(label: "playctl.thumbnails")
    private let box = ReaderBox()

    /// The reader, touched only on `queue` (serial): that is why the box is `@unchecked Sendable`.
    private final class ReaderBox: @unchecked Sendable {
        var reader: ThumbnailReader?
        var closed = false
    }

    /// Thumbnails of `url` (a path, or an http(s) URL read through `loading`), made as `options` say, kept in
    /// `cache` when given.
    public init(url: String, options: ThumbnailOptions, loading: RemoteLoading = .shared, cache: PosterCache? = nil) {
        self.url = url
        self.options = options
        self.loading = loading
        self.cache = cache
    }

    deinit {
        let box = box
        queue.async { box.reader?.close() }
    }

    /// The thumbnail for `seconds`: the keyframe nearest it, or the frame on screen then (exact).
    /// - Throws: `MediaError` naming the media: missing, not a video, unreadable.
    public func thumbnail(at seconds: Double) async throws(MediaError) -> Thumbnail {
        try await perform { reader throws(MediaError) in try reader.thumbnail(at: seconds) }
    }

    /// The media's duration in seconds (0 when the container does not say).
    public func duration() async throws(MediaError) -> Double {
        try await perform { reader in reader.duration }
    }

    /// The times of a storyboard with one thumbnail every `interval` seconds: 0, interval, 2 interval, ... before
    /// the end (one at 0 when the duration is unknown).
    public func storyboardTimes(every interval: Double) async throws(MediaError) -> [Double] {
        let duration = try await duration()
        guard interval > 0 else { return [0] }
        let count = max(Int((duration / interval).rounded(.up)), 1)
        return (0..<count).map { Double($0) * interval }
    }

    /// The thumbnails of a storyboard, one every `interval` seconds, in order: ends after the last, or with the
    /// first error. Stops making them when the consumer stops iterating.
    public func thumbnails(every interval: Double) -> AsyncThrowingStream<Thumbnail, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for time in try await self.storyboardTimes(every: interval) {
                        try Task.checkCancellation()
                        continuation.yield(try await self.thumbnail(at: time))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Closes the media (a remote one's transfers stop); later requests fail as cancelled.
    public func close() {
        let box = box
        queue.async {
            box.closed = true
            box.reader?.close()
            box.reader = nil
        }
    }

    private func perform<T: Sendable>(
        _ work: @escaping @Sendable (ThumbnailReader) throws(MediaError) -> T
    ) async throws(MediaError) -> T {
        let (url, options, loading, box, cache) = (url, options, loading, box, cache)
        let result: Result<T, MediaError> = await withCheckedContinuation { continuation in
            queue.async {
                let result = Result { () throws(MediaError) -> T in
                    guard !box.closed else {
                        throw MediaError(.cancelled, url: url, operation: .read, reason: "the thumbnails were closed")
                    }
                    if box.reader == nil {
                        box.reader = try ThumbnailReader(url: url, options: options, loading: loading, cache: cache)
                    }
                    return try work(box.reader!)
                }
                continuation.resume(returning: result)
            }
        }
        return try result.get()
    }
}

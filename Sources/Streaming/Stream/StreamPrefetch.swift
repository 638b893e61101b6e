import Foundation
import Loading
import Locking
import MediaCore

/// The start of an adaptive presentation fetched ahead into the byte cache, for a player that may play it later (a
/// feed's next items): the manifest, the media playlist of the variant the ABR machine would start with (from a
/// bandwidth estimate, the process's by default, within `limits`), its initialization section and its first segments, and as much of
/// the audio rendition it plays with when its audio is one of its own
/// (``Presentation/audioRendition(for:preferredLanguage:)``). A later ``StreamSession`` of the same URL and cache
/// reads them from the cache.
///
/// Its fetches are prefetches: they give way while a player claims the link. Runs on a thread of its own.
public final class StreamPrefetch: Sendable {
    public let url: String
    private let state = Locked(State())

    struct State {
        var result: Result<Void, MediaError>?
        var cancelled = false
        var task: PrefetchTask?
    }

    /// How it ended (a cancellation is a `.cancelled` error); nil while it runs.
    public var result: Result<Void, MediaError>? { state.withLock { $0.result } }

    private init(url: String) { self.url = url }

    /// Starts fetching the start of `url`: its first `segments` segments, of the variant the ABR machine starts on
    /// from `bandwidthEstimate` (give the one its player will read, ``StreamSession``'s). `completion` runs once, on
    /// the prefetch's thread, with nil when everything is held, else why not.
    @discardableResult
    public static func start(
        _ url: String, loading: RemoteLoading, limits: ABRLimits = .none,
        bandwidthEstimate: SharedBandwidthEstimate = .shared, segments: Int = 1,
        completion: @escaping @Sendable (MediaError?) -> Void = { _ in }
    ) -> StreamPrefetch {
        let prefetch = StreamPrefetch(url: url)
        Thread.detachNewThread {
            let outcome: MediaError?
            do throws(MediaError) {
                try prefetch.run(
                    loading: loading, limits: limits, startEstimate: bandwidthEstimate.current, segments: segments)
                outcome = nil
            } catch {
                outcome = error
            }
            let report = prefetch.state.withLock { s -> MediaError? in
                let final =
                    s.cancelled ? MediaError(.cancelled, url: url, operation: .read, reason: "cancelled") : outcome
                s.result = final.map { .failure($0) } ?? .success(())
                s.task = nil
                return final
            }
            completion(report)
        }
        return prefetch
    }

    /// Stops it (what arrived stays cached).
    public func cancel() {
        let task = state.withLock { s -> PrefetchTask? in
            s.cancelled = true
            return s.task
        }
        task?.cancel()
    }

    private func run(
        loading: RemoteLoading, limits: ABRLimits, startEstimate: Double?, segments count: Int
    ) throws(MediaError) {
        let presentation = try ManifestLoader.presentation(url, loading: loading, priority: .prefetch)
        guard
            var abr = ABRMachine(
                variants: presentation.variants, limits: limits, startEstimate: startEstimate)
        else { throw MediaError(.malformedManifest, url: url, operation: .probe, reason: "no variant to play") }
        try checkCancelled()
        let variant = abr.nextSegment(duration: 0).variant
        let playlist = try ManifestLoader.playlist(variant.media, loading: loading, priority: .prefetch)
        try fetchStart(of: playlist, segments: count, loading: loading)
        // A session plays a VOD presentation's audio rendition beside the variant (not a live one's).
        if playlist.hasEnd, let media = presentation.audioRendition(for: variant)?.media {
            try checkCancelled()
            let audio = try ManifestLoader.playlist(media, loading: loading, priority: .prefetch)
            try fetchStart(of: audio, segments: count, loading: loading)
        }
    }

    /// Fetches the first `count` segments of `playlist` (at least one), each after its initialization section.
    private func fetchStart(of playlist: MediaPlaylist, segments count: Int, loading: RemoteLoading) throws(MediaError)
    {
        for segment in playlist.segments.prefix(max(count, 1)) {
            if let initialization = segment.initialization {
                try fetch(initialization.url, upTo: initialization.byteRange?.end, loading: loading)
            }
            try fetch(segment.url, upTo: segment.byteRange?.end, loading: loading)
        }
    }

    /// Fetches `url` up to `end` as a prefetch, waiting for it.
    private func fetch(_ url: String, upTo end: Int64?, loading: RemoteLoading) throws(MediaError) {
        try checkCancelled()
        let done = DispatchSemaphore(value: 0)
        let task = loading.prefetch(url, upTo: end) { _ in done.signal() }
        let cancelled = state.withLock { s -> Bool in
            s.task = task
            return s.cancelled
        }
        if cancelled { task.cancel() }
        done.wait()
        state.withLock { $0.task = nil }
        if case .failure(let error) = task.result { throw error }
    }

    private func checkCancelled() throws(MediaError) {
        if state.withLock({ $0.cancelled }) {
            throw MediaError(.cancelled, url: url, operation: .read, reason: "cancelled")
        }
    }
}

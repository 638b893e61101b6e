import Loading
import Locking
import MediaCore
import MediaIO
import Playback

/// Media at a URL, as AVFoundation's `AVAsset`: its properties (duration, playability, tracks) load asynchronously
/// by probing the media with the engine's demuxer, on a thread of its own, once per asset.
///
/// Load with `try await asset.load(.duration, .isPlayable)` or, string-keyed,
/// `loadValuesAsynchronously(forKeys:completionHandler:)` then `statusOfValue(forKey:error:)`. The synchronous
/// getters (`duration`, `isPlayable`, `tracks`, deprecated on Apple platforms) load first when needed, blocking.
open class AVAsset: NSObject, AVAsynchronousKeyValueLoading, @unchecked Sendable {
    /// What the engine's probe found.
    struct Probe: Sendable {
        var duration: CMTime
        var isPlayable: Bool
        var tracks: [AVAssetTrack]
        var metadata: MediaMetadata
        /// The container's selection groups (audio, subtitles).
        var groups: [MediaSelectionGroup] = []
    }

    enum Loading {
        case idle
        case loading([CheckedContinuation<Result<Probe, NSError>, Never>], [@Sendable () -> Void])
        case done(Result<Probe, NSError>)
        case cancelled
    }

    /// The path or URL the engine opens.
    let engineURL: String
    private let loading = Locked(Loading.idle)

    /// An asset for `url` (an `AVURLAsset`'s behaviour).
    public convenience init(url: URL) {
        self.init(engineURL: AVAsset.engineURL(of: url))
    }

    init(engineURL: String) {
        self.engineURL = engineURL
        super.init()
    }

    /// A file URL's path; any other URL as text.
    static func engineURL(of url: URL) -> String { url.isFileURL ? url.path : url.absoluteString }

    /// The engine item that plays this asset.
    func makeEngineItem() -> PlayerItem { PlayerItem(url: engineURL) }

    /// The source the probe reads (nil: the demuxer opens the path itself): http(s) through the shared loader and
    /// byte cache.
    func makeProbeSource() -> (any ByteSource)? {
        RemoteLoading.isRemote(engineURL) ? RemoteLoading.shared.source(engineURL) : nil
    }

    // MARK: Synchronous getters

    /// The duration (loads first, blocking, when not loaded; `.indefinite` when loading fails).
    public var duration: CMTime { (try? loadedProbe().get())?.duration ?? .indefinite }
    /// Whether the engine can play it (loads first, blocking; false when loading fails).
    public var isPlayable: Bool { (try? loadedProbe().get())?.isPlayable ?? false }
    /// The tracks (loads first, blocking; empty when loading fails).
    public var tracks: [AVAssetTrack] { (try? loadedProbe().get())?.tracks ?? [] }
    /// The container's title, artist, album, creation date and artwork under the common keys (loads first,
    /// blocking; empty when loading fails).
    public var commonMetadata: [AVMetadataItem] {
        (try? loadedProbe().get()).map { AVMetadataItem.common($0.metadata) } ?? []
    }
    /// Every tag of the container and its artwork (loads first, blocking; empty when loading fails).
    public var metadata: [AVMetadataItem] { (try? loadedProbe().get()).map { AVMetadataItem.all($0.metadata) } ?? [] }

    // MARK: Loading

    /// The probe's result, waiting for it (and starting it) as needed.
    func probe() async -> Result<Probe, NSError> {
        await withCheckedContinuation { continuation in
            let start = loading.withLock { loading -> Result<Probe, NSError>?? in
                switch loading {
                case .done(let result): return .some(result)
                case .cancelled: return .some(.failure(Self.cancelledError))
                case .loading(var waiters, let handlers):
                    waiters.append(continuation)
                    loading = .loading(waiters, handlers)
                    return .some(nil)
                case .idle:
                    loading = .loading([continuation], [])
                    return nil
                }
            }
            switch start {
            case .some(.some(let result)): continuation.resume(returning: result)
            case .some(.none): break
            case .none: startProbe()
            }
        }
    }

    /// Starts loading (if not started) and calls `handler` once it is done, on the loading thread (at once, on the
    /// caller's thread, when already done).
    func whenLoaded(_ handler: @escaping @Sendable () -> Void) {
        let action = loading.withLock { loading -> Int in
            switch loading {
            case .done, .cancelled: return 0
            case .loading(let waiters, var handlers):
                handlers.append(handler)
                loading = .loading(waiters, handlers)
                return 1
            case .idle:
                loading = .loading([], [handler])
                return 2
            }
        }
        if action == 0 { handler() }
        if action == 2 { startProbe() }
    }

    /// Where loading stands: nil before it starts, else its result when done.
    var loadState: (started: Bool, result: Result<Probe, NSError>?, cancelled: Bool) {
        loading.withLock { loading in
            switch loading {
            case .idle: return (false, nil, false)
            case .loading: return (true, nil, false)
            case .done(let result): return (true, result, false)
            case .cancelled: return (true, nil, true)
            }
        }
    }

    /// Cancels loading: waiting loads fail with `AVError.Code.operationCancelled`.
    public func cancelLoading() {
        let (waiters, handlers) = loading.withLock {
            loading -> ([CheckedContinuation<Result<Probe, NSError>, Never>], [@Sendable () -> Void]) in
            guard case .loading(let waiters, let handlers) = loading else { return ([], []) }
            loading = .cancelled
            return (waiters, handlers)
        }
        for waiter in waiters { waiter.resume(returning: .failure(Self.cancelledError)) }
        for handler in handlers { handler() }
    }

    func loadedProbe() -> Result<Probe, NSError> {
        if let result = loadState.result { return result }
        let done = DispatchSemaphore(value: 0)
        whenLoaded { done.signal() }
        done.wait()
        return loadState.result ?? .failure(Self.cancelledError)
    }

    private func startProbe() {
        let url = engineURL
        let thread = Thread { [self] in
            let source = makeProbeSource()
            let result = Self.runProbe(url, source: source)
            source?.close()
            let (waiters, handlers) = loading.withLock {
                loading -> ([CheckedContinuation<Result<Probe, NSError>, Never>], [@Sendable () -> Void]) in
                guard case .loading(let waiters, let handlers) = loading else { return ([], []) }
                loading = .done(result)
                return (waiters, handlers)
            }
            for waiter in waiters { waiter.resume(returning: result) }
            for handler in handlers { handler() }
        }
        thread.name = "playctl.asset"
        thread.start()
    }

    /// Opens `url` with the engine's demuxer, reading `source` when given.
    private static func runProbe(_ url: String, source: (any ByteSource)?) -> Result<Probe, NSError> {
        do {
            let demuxer = try Demuxer(url: url, source: source)
            let tracks = demuxer.tracks.map(AVAssetTrack.init(engineTrack:))
            let duration = demuxer.duration.map(CMTime.init) ?? .indefinite
            return .success(
                Probe(
                    duration: duration, isPlayable: tracks.contains { $0.isPlayable }, tracks: tracks,
                    metadata: demuxer.metadata, groups: MediaSelectionGroup.groups(of: demuxer.tracks)))
        } catch {
            return .failure(AVPlayerItem.nsError(error.description))
        }
    }

    static let cancelledError = NSError(
        domain: AVFoundationErrorDomain, code: AVError.Code.operationCancelled.rawValue,
        userInfo: [NSLocalizedDescriptionKey: "loading was cancelled"])
}

extension AVAssetTrack {
    convenience init(engineTrack track: TrackInfo) {
        let mediaType: AVMediaType
        switch track.kind {
        case .video: mediaType = .video
        case .audio: mediaType = .audio
        case .subtitle: mediaType = .subtitle
        case .other: mediaType = .metadata
        }
        self.init(
            trackID: Int32(track.index + 1), mediaType: mediaType,
            naturalSize: CGSize(width: track.width ?? 0, height: track.height ?? 0),
            nominalFrameRate: Float(track.frameRate ?? 0),
            timeRange: track.duration.map { CMTimeRange(start: .zero, duration: CMTime($0)) } ?? .invalid,
            isPlayable: track.isDecodable && (track.kind == .video || track.kind == .audio),
            estimatedDataRate: Float(track.bitRate ?? 0), rotation: track.rotation)
    }
}

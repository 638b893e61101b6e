import Loading
import Locking
import MediaCore
import Streaming

/// An HLS or DASH item's way to its segments: the stream session of its current load (opened by the first reader,
/// shared by the others: they read the same variant's segments), and a source per reader.
final class StreamAccess: Sendable {
    let url: String
    let loading: RemoteLoading
    /// The item's limits (its peak bit rate and maximum resolution), forward buffer and bandwidth estimate as they
    /// are when a load opens the session.
    private let settings: @Sendable () -> Settings
    /// The item's settings a load opens its session with.
    struct Settings {
        var limits: ABRLimits
        var forwardSeconds: Double
        var estimate: SharedBandwidthEstimate
        /// How far behind a live playlist's end the play starts (nil: the session's recommendation).
        var liveOffset: Double?
    }
    private let current = Locked<StreamSession?>(nil)

    init(
        url: String, loading: RemoteLoading,
        settings: @escaping @Sendable () -> Settings
    ) {
        self.url = url
        self.loading = loading
        self.settings = settings
    }

    /// The default forward buffer of a presentation, in seconds of media downloaded ahead of the reader (video.js's
    /// goal; an item's `preferredForwardBufferDuration` replaces it).
    static let defaultForwardSeconds: Double = 30

    /// The session of the current load, once a reader opened it.
    var session: StreamSession? { current.withLock { $0 } }

    /// A source for `request`'s reader: the primary reader opens a new session (a new load of the item: a
    /// first play, or one after a failure); the others read the session it opened (the audio reader its audio
    /// rendition, when the presentation's audio is in one of its own: ``StreamSession/audioRendition``).
    func source(for request: ByteSourceRequest) throws(MediaError) -> any ByteSource {
        if request.reader == .primary {
            let settings = settings()
            let session = try StreamSession.open(
                url: url, loading: loading, limits: settings.limits,
                forwardSeconds: settings.forwardSeconds > 0 ? settings.forwardSeconds : Self.defaultForwardSeconds,
                bandwidthEstimate: settings.estimate, liveOffset: settings.liveOffset)
            let old = current.withLock { current -> StreamSession? in
                defer { current = session }
                return current
            }
            old?.close()
            return SegmentedStream(session: session, drivesDownloads: true)
        }
        guard let session else {
            throw MediaError(
                .invalidArgument, url: url, operation: .open, reason: "a reader opened before the stream's session")
        }
        // The audio decoder reads the presentation's audio rendition when its audio is in one of its own.
        if request.reader == .audio, session.audioRendition != nil { return SegmentedStream(audioOf: session) }
        return SegmentedStream(session: session, drivesDownloads: false)
    }
}

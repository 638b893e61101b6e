import Foundation
import Loading
import Locking
import Streaming
import Synchronization

/// One piece of media to play, like `AVPlayerItem`: it loads when a player takes it, then reports its status,
/// duration, tracks and buffering state.
///
/// An item plays in at most one player at a time. All properties may be read from any thread.
public final class PlayerItem: Sendable {
    struct State {
        var status = PlayerItemStatusMachine()
        var error: MediaError?
        var duration: MediaTime = .indefinite
        var presentationSize: (width: Int, height: Int)?
        var tracks: [TrackInfo] = []
        var metadata = MediaMetadata()
        var buffering = BufferingState()
        var preferredForwardBufferDuration: Double = 0
        var configuredTimeOffsetFromLive: MediaTime = .invalid
        var audioTimePitchAlgorithm = AudioTimePitchAlgorithm.timeDomain
        var currentTime: MediaTime = .zero
        var bufferedUntil: MediaTime = .zero
        /// For an item fed over a link: the media time ranges whose bytes are held.
        var remoteLoadedRanges: [TimeRange]?
        var networkProgress: ByteSourceProgress?
        var byteTimeline: ByteTimeline?
        var preferredPeakBitRate: Double = 0
        var preferredMaximumResolution: Resolution?
        var bandwidthEstimate = SharedBandwidthEstimate.shared
        var loadingPriority: TransferPriority = .playback
        var decryptionKey: String?
        /// For an item made from progressive renditions: the one it plays, and why.
        var renditionChoice: ProgressiveRenditionChoice?
        /// Media selection: the groups once loaded, what is selected, what the app chose, and options that failed.
        var groups: [MediaSelectionGroup] = []
        var selection = MediaSelection()
        var explicitSelection: [MediaCharacteristic: MediaSelectionOption?] = [:]
        var optionErrors: [MediaSelectionOption: MediaError] = [:]
        var sidecars: [SidecarSubtitle] = []
        var legibleOutputs: [PlayerItemLegibleOutput] = []
        var metadataOutputs: [PlayerItemMetadataOutput] = []
        var videoOutputs: [VideoOutput] = []
        weak var core: PlayerCore?

        /// The limits an adaptive presentation's variant choice keeps to.
        var limits: ABRLimits {
            ABRLimits(
                preferredPeakBitRate: preferredPeakBitRate, preferredMaximumResolution: preferredMaximumResolution)
        }
    }

    /// The path or URL the item plays.
    public let url: String
    /// The file name, used to label the item in events.
    public let name: String
    let state: Locked<State>
    private static let counter = Atomic<UInt64>(0)
    /// Creation order, for deterministic ordering of work between items.
    let serial: UInt64

    /// Identifies the item among every item of the process (numbers increase in creation order); events name the
    /// item they concern by it (``PlayerEvent/itemSerialNumber``).
    public var serialNumber: UInt64 { serial }

    /// Makes the byte sources the item is read through (nil: libavformat opens `url` itself).
    public let makeSource: ByteSourceMaker?

    /// Makes one `ByteSource` for an item's media, called once for each reader of it (its video and audio decoders
    /// read apart, each through a source of its own), on a loader thread.
    public typealias ByteSourceMaker = @Sendable (_ request: ByteSourceRequest) throws(MediaError) -> any ByteSource

    /// How an http(s) item's bytes are fetched and cached (nil for other items and items with their own sources).
    public let loading: RemoteLoading?

    /// The stream session of an HLS or DASH item (nil for a file or a progressive URL).
    let streamAccess: StreamAccess?

    /// An item for `url`: a path, an `http://` or `https://` URL, or any other URL FFmpeg opens. Nothing is opened
    /// until a player takes the item. http(s) items are read through `loading` (the shared byte cache and HTTP
    /// loader by default: byte ranges, resumes, typed errors, the cache shared by every player), never through
    /// FFmpeg's own HTTP. With `source`, the bytes come from the sources it makes instead (`url` still names the
    /// item and helps probing by its extension): a source of an app's own, or (from `PlaybackTesting`) a throttled
    /// or failing one to test stalls and faults.
    public init(url: String, source: ByteSourceMaker? = nil, loading: RemoteLoading = .shared) {
        self.url = url
        let state = Locked(State())
        self.state = state
        var access: StreamAccess?
        if let source {
            self.makeSource = source
            self.loading = nil
        } else if RemoteLoading.isRemote(url) && ManifestURI.isManifest(url) {
            // An HLS or DASH presentation: its readers read the segments the item's stream session picks.
            let stream = StreamAccess(url: url, loading: loading) { [state] in
                state.withLock {
                    StreamAccess.Settings(
                        limits: $0.limits, forwardSeconds: $0.preferredForwardBufferDuration,
                        estimate: $0.bandwidthEstimate,
                        liveOffset: $0.configuredTimeOffsetFromLive.isNumeric
                            ? $0.configuredTimeOffsetFromLive.seconds : nil)
                }
            }
            access = stream
            self.makeSource = { (request) throws(MediaError) in try stream.source(for: request) }
            self.loading = loading
        } else if RemoteLoading.isRemote(url) {
            self.makeSource = { request in loading.source(request.url) }
            self.loading = loading
        } else {
            self.makeSource = nil
            self.loading = nil
        }
        self.streamAccess = access
        self.name = Self.name(of: url)
        self.serial = Self.counter.add(1, ordering: .relaxed).newValue
    }

    /// An item for the http(s) `url` whose requests send `headers` (an `Authorization`, a cookie: what
    /// `AVURLAsset`'s HTTP header fields option carries), beside those of `loading`; an HLS or DASH
    /// presentation's playlists, keys and segments send them too. Headers are never logged, nor put in an error or
    /// event, and are not part of the cache's key (the bytes of a URL are shared whatever headers fetched them).
    /// A server that refuses them answers with a status the item fails with: `MediaError.httpStatus`, its `code`
    /// 401 or 403, naming the URL.
    public convenience init(url: String, headers: [String: String], loading: RemoteLoading = .shared) {
        self.init(url: url, loading: loading.adding(headers: headers))
    }

    /// The last path component of `url`, without a query or fragment.
    static func name(of url: String) -> String {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        let trimmed = path.split(separator: "#", maxSplits: 1).first.map(String.init) ?? path
        return trimmed.split(separator: "/").last.map(String.init) ?? url
    }

    /// A new item for the same media, read the same way (what `PlayerLooper` plays in turn).
    public func copy() -> PlayerItem {
        let item = loading.map { PlayerItem(url: url, loading: $0) } ?? PlayerItem(url: url, source: makeSource)
        item.preferredForwardBufferDuration = preferredForwardBufferDuration
        item.configuredTimeOffsetFromLive = configuredTimeOffsetFromLive
        item.audioTimePitchAlgorithm = audioTimePitchAlgorithm
        item.decryptionKey = decryptionKey
        item.state.withLock { $0.sidecars = sidecarSubtitles }
        return item
    }

    /// `.unknown` until loaded, then `.readyToPlay` or `.failed` (see `error`).
    public var status: PlayerItemStatus { state.withLock { $0.status.status } }
    /// Why the item failed, naming the file and FFmpeg's reason.
    public var error: MediaError? { state.withLock { $0.error } }
    /// The media's duration; `.indefinite` until known.
    public var duration: MediaTime { state.withLock { $0.duration } }
    /// The picture size as shown (rotation applied); nil without video or before loading.
    public var presentationSize: (width: Int, height: Int)? { state.withLock { $0.presentationSize } }
    /// The media's tracks; empty before loading.
    public var tracks: [TrackInfo] { state.withLock { $0.tracks } }
    /// Once loaded: the file's tags, chapters and artwork (an audio file's cover).
    public var metadata: MediaMetadata { state.withLock { $0.metadata } }
    /// Once loaded: title, artist, album, creation date and artwork under `AVMetadataItem`'s common keys.
    public var commonMetadata: [MetadataItem] { metadata.commonMetadata }
    /// The item's current time (its player's, while it is the current item).
    public func currentTime() -> MediaTime {
        if let core = state.withLock({ $0.core }) { return core.currentTime(of: self) }
        return state.withLock { $0.currentTime }
    }

    /// How far ahead the player should buffer, in seconds; 0 lets the player choose. For an http(s) item it also
    /// bounds how far ahead its bytes are fetched (automatic: 30 s of media); the buffer counts as full at it (2 s
    /// when automatic).
    public var preferredForwardBufferDuration: Double {
        get { state.withLock { $0.preferredForwardBufferDuration } }
        set {
            let core = state.withLock { itemState -> PlayerCore? in
                itemState.preferredForwardBufferDuration = max(newValue, 0)
                return itemState.core
            }
            core?.forwardBufferChanged(self)
        }
    }

    /// How its audio is played at rates other than 1: the pitch kept (``AudioTimePitchAlgorithm/timeDomain``, the
    /// default, and ``AudioTimePitchAlgorithm/spectral``) or following the rate (``AudioTimePitchAlgorithm/varispeed``).
    /// A change takes effect at once: the audio not played yet is made again from where it is.
    public var audioTimePitchAlgorithm: AudioTimePitchAlgorithm {
        get { state.withLock { $0.audioTimePitchAlgorithm } }
        set {
            let core = state.withLock { itemState -> PlayerCore? in
                itemState.audioTimePitchAlgorithm = newValue
                return itemState.core
            }
            core?.timePitchChanged(self)
        }
    }

    /// For an http(s) item: what its loader reported at the player's last buffer report (bytes transferred,
    /// download rate, time to first byte, the byte ranges held); nil for local items and before loading.
    public var networkProgress: ByteSourceProgress? { state.withLock { $0.networkProgress } }

    /// For an item fed over a link, once loaded: where its media times lie in its bytes (from the container's
    /// index), to tell how many bytes playing up to a time needed.
    public var byteTimeline: ByteTimeline? { state.withLock { $0.byteTimeline } }

    /// The clear key (32 hex digits) of an MP4 encrypted with common encryption (`cenc-aes-ctr`), as
    /// `AVURLAsset`'s content keys are given before loading: set it before the item loads. Without it an encrypted
    /// item fails with `MediaError.Kind.encrypted`.
    public var decryptionKey: String? {
        get { state.withLock { $0.decryptionKey } }
        set { state.withLock { $0.decryptionKey = newValue } }
    }

    /// How an http(s) item's bytes compete for the link: `.playback` (the default), or `.prefetch` for an item loaded
    /// ahead (a feed's prepared next item): its fetches pause while a player claims the link
    /// (`ByteCache.claimLink()`). Set it back to `.playback` when the item is shown.
    public var loadingPriority: TransferPriority {
        get { state.withLock { $0.loadingPriority } }
        set {
            let core = state.withLock { itemState -> PlayerCore? in
                itemState.loadingPriority = newValue
                return itemState.core
            }
            core?.loadingPriorityChanged(self)
        }
    }

    /// A cap on the bit rate the player should choose, in bits per second; 0 for none (`AVPlayerItem`'s). An HLS or
    /// DASH item chooses its variants under it (a change while it plays applies to the segments not loaded yet); an
    /// item with one rendition (a progressive file) has nothing to choose between.
    public var preferredPeakBitRate: Double {
        get { state.withLock { $0.preferredPeakBitRate } }
        set {
            let limits = state.withLock { itemState in
                itemState.preferredPeakBitRate = max(newValue, 0)
                return itemState.limits
            }
            streamAccess?.session?.setLimits(limits)
        }
    }

    /// The largest picture the player should choose for an adaptive presentation (`AVPlayerItem`'s; nil for
    /// none). Applied when the item loads, as ``preferredPeakBitRate`` is.
    public var preferredMaximumResolution: Resolution? {
        get { state.withLock { $0.preferredMaximumResolution } }
        set {
            let limits = state.withLock { itemState in
                itemState.preferredMaximumResolution = newValue
                return itemState.limits
            }
            streamAccess?.session?.setLimits(limits)
        }
    }

    /// The variant switches of an adaptive presentation's current play, its first choice included (empty for a
    /// file or a progressive URL, and before the item loads).
    public var variantSwitches: [VariantSwitch] { streamAccess?.session?.switches ?? [] }

    /// For a live HLS playlist: how far behind its end the play starts, as AVPlayerItem's
    /// `configuredTimeOffsetFromLive`. `.invalid` (the default) starts at ``recommendedTimeOffsetFromLive``; a value
    /// set takes effect at the item's next load (set it before playing). The play starts with the last segment that
    /// begins at least this far before the playlist's end.
    public var configuredTimeOffsetFromLive: MediaTime {
        get { state.withLock { $0.configuredTimeOffsetFromLive } }
        set { state.withLock { $0.configuredTimeOffsetFromLive = newValue } }
    }

    /// For a live HLS playlist once loaded: three of its target durations (RFC 8216 6.3.3), as AVPlayerItem's
    /// `recommendedTimeOffsetFromLive`; `.invalid` otherwise.
    public var recommendedTimeOffsetFromLive: MediaTime {
        streamAccess?.session?.recommendedLiveOffset.map { MediaTime(printedSeconds: $0) } ?? .invalid
    }

    /// For a live HLS playlist once loaded: how far the item's current time is behind the playlist's end as last
    /// reloaded (Media3's `getCurrentLiveOffset`, hls.js's `latency`); `.invalid` otherwise.
    public var currentTimeOffsetFromLive: MediaTime {
        guard let session = streamAccess?.session else { return .invalid }
        let now = currentTime()
        guard now.isNumeric, let offset = session.liveOffset(playhead: now.seconds) else { return .invalid }
        return MediaTime(printedSeconds: offset)
    }

    /// The variant of the last segment its stream's primary reader entered (nil before the first, and for items
    /// that are not adaptive).
    var variantRead: VariantRead? { streamAccess?.session?.variantRead }

    /// An adaptive item's loaded media: the time spans of the segments downloaded or read (nil for other items).
    var segmentsLoaded: [TimeRange]? {
        streamAccess?.session?.loadedSpans.map {
            TimeRange(start: MediaTime(seconds: $0.start), duration: MediaTime(seconds: $0.end - $0.start))
        }
    }

    /// The presentation an HLS or DASH item plays (nil before it loads, and for other items).
    public var presentation: Presentation? { streamAccess?.session?.presentation }

    /// What playing an HLS or DASH item up to `seconds` of its time needed, in bytes (its manifest, the playlists,
    /// initialization sections and segments before `seconds`, the one holding it prorated:
    /// ``StreamSession/bytesPlayed(upTo:)``); `.infinity`: all it decided to play. Nil before it loads and for other
    /// items (a progressive item's ``byteTimeline`` tells its own).
    public func streamBytesPlayed(upTo seconds: Double) -> Int64? {
        streamAccess?.session?.bytesPlayed(upTo: seconds)
    }

    public var isPlaybackLikelyToKeepUp: Bool { state.withLock { $0.buffering.isPlaybackLikelyToKeepUp } }
    public var isPlaybackBufferEmpty: Bool { state.withLock { $0.buffering.isPlaybackBufferEmpty } }
    public var isPlaybackBufferFull: Bool { state.withLock { $0.buffering.isPlaybackBufferFull } }

    /// The media time ranges available without waiting: for an HLS or DASH item, the spans of the segments it holds
    /// (downloaded ahead or read; AVPlayer reports an HLS item's buffered segments); for an http(s) item, those
    /// whose bytes are held (in the byte cache); for a local file, all of it (start to end) once its duration is
    /// known, as AVFoundation reports it.
    public var loadedTimeRanges: [TimeRange] {
        if let segments = segmentsLoaded { return segments }
        return state.withLock { s in
            if let remote = s.remoteLoadedRanges { return remote }
            // A local file's bytes are all there: loaded from start to end, as AVFoundation reports a local asset.
            guard s.status.status == .readyToPlay else { return [] }
            if s.duration.isNumeric { return [TimeRange(start: .zero, duration: s.duration)] }
            guard s.bufferedUntil > s.currentTime else { return [] }
            return [TimeRange(start: s.currentTime, duration: s.bufferedUntil - s.currentTime)]
        }
    }

    /// Where the item can seek: the whole file, once its duration is known.
    public var seekableTimeRanges: [TimeRange] {
        state.withLock { s in
            guard s.status.status == .readyToPlay, s.duration.isNumeric else { return [] }
            return [TimeRange(start: .zero, duration: s.duration)]
        }
    }

    /// Seeks the item in its player, like `AVPlayerItem.seek(to:toleranceBefore:toleranceAfter:)`.
    /// Returns false when the item is not in a player, or the seek was superseded or cancelled.
    public func seek(
        to time: MediaTime, toleranceBefore: MediaTime = .positiveInfinity,
        toleranceAfter: MediaTime = .positiveInfinity
    ) async -> Bool {
        guard let core = state.withLock({ $0.core }) else { return false }
        return await core.seek(
            item: self, to: time, exact: toleranceBefore == .zero && toleranceAfter == .zero,
            origin: .api)
    }

    /// Completes every seek in flight on this item with `false`.
    public func cancelPendingSeeks() {
        state.withLock { $0.core }?.cancelPendingSeeks(item: self)
    }
}

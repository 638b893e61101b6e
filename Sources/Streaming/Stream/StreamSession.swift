import Foundation
import Loading
import Locking
import MediaCore

/// One play of an adaptive presentation: its manifest, the media playlists loaded so far, which variant each
/// segment comes from (decided once, so the video and audio readers read the same bytes), and the downloads ahead
/// of the primary reader that feed the ABR machine's bandwidth estimate.
///
/// A driver in the engine's shape: its state is one value behind a lock; downloads, playlist loads and observers
/// run after the lock is released. Made on a loader thread (``open(url:loading:limits:)`` blocks on the network).
public final class StreamSession: Sendable {
    /// The manifest's URL.
    public let url: String
    public let presentation: Presentation
    let loading: RemoteLoading
    /// How far ahead of the primary reader segments are downloaded, in seconds of media.
    public let forwardSeconds: Double
    /// Where the play's start estimate comes from and its measurements go (``SharedBandwidthEstimate/shared``
    /// unless given one).
    public let bandwidthEstimate: SharedBandwidthEstimate
    private let state: Locked<State>
    /// The AES-128 keys fetched so far, by URL.
    private let keys = SegmentKeys()
    /// The alternative audio rendition played beside the variants, when the presentation's audio is in one of its
    /// own (an HLS `#EXT-X-MEDIA:TYPE=AUDIO` with a `URI`, a DASH audio AdaptationSet): read by a stream of its own,
    /// ``SegmentedStream/init(audioOf:)``. Nil when the variants' segments carry the audio (or there is none).
    public let audioRendition: Rendition?

    /// The wall clock, in seconds since 1970, a dynamic MPD's segments are computed at (tests give a virtual one).
    let wallClock: @Sendable () -> Double

    /// Wakes the downloader when the state changed (a reader moved on, a seek, the end).
    private let wake = NSCondition()

    private init(
        url: String, presentation: Presentation, loading: RemoteLoading, forwardSeconds: Double,
        bandwidthEstimate: SharedBandwidthEstimate, audioRendition: Rendition?, state: State,
        wallClock: @escaping @Sendable () -> Double
    ) {
        self.wallClock = wallClock
        self.audioRendition = audioRendition
        self.bandwidthEstimate = bandwidthEstimate
        self.url = url
        self.presentation = presentation
        self.loading = loading
        self.forwardSeconds = forwardSeconds
        self.state = Locked(state)
    }

    /// Loads the manifest at `url` and the media playlist of the variant the ABR machine starts with (from the
    /// process's last bandwidth estimate, within `limits`), and that of the audio rendition it plays with when its
    /// audio is in one of its own (``Presentation/audioRendition(for:preferredLanguage:)``, in
    /// `preferredAudioLanguage` when one is). A live playlist plays from `liveOffset` seconds before its end (nil:
    /// three target durations, ``recommendedLiveOffset``). Blocking.
    /// - Throws: the loader's errors (naming the playlist that failed, the audio rendition's included),
    ///   `.malformedManifest`, `.refusedByPolicy`.
    public static func open(
        url: String, loading: RemoteLoading, limits: ABRLimits = ABRLimits(), forwardSeconds: Double = 30,
        bandwidthEstimate: SharedBandwidthEstimate = .shared, preferredAudioLanguage: String? = nil,
        liveOffset: Double? = nil
    ) throws(MediaError) -> StreamSession {
        try open(
            url: url, loading: loading, limits: limits, forwardSeconds: forwardSeconds,
            bandwidthEstimate: bandwidthEstimate, preferredAudioLanguage: preferredAudioLanguage,
            liveOffset: liveOffset, startsThreads: true)
    }

    /// ``open(url:loading:limits:forwardSeconds:bandwidthEstimate:preferredAudioLanguage:liveOffset:)``; without
    /// `startsThreads`, no thread downloads or reloads: the caller drives the session (``downloadNext()``,
    /// ``reloadLiveOnce()``, the readers' calls), as a simulation in virtual time does.
    static func open(
        url: String, loading: RemoteLoading, limits: ABRLimits, forwardSeconds: Double,
        bandwidthEstimate: SharedBandwidthEstimate, preferredAudioLanguage: String?, liveOffset: Double?,
        startsThreads: Bool, wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) throws(MediaError) -> StreamSession {
        let (presentation, clockOffset) = try ManifestLoader.synchronizedPresentation(
            url, loading: loading, wallClock: wallClock)
        // A live MPD's segments are dated by the origin's clock: its offset from the machine's holds for the play.
        let originClock: @Sendable () -> Double
        if clockOffset == 0 {
            originClock = wallClock
        } else {
            originClock = { wallClock() + clockOffset }
        }
        guard !presentation.variants.isEmpty else {
            throw MediaError(.malformedManifest, url: url, operation: .probe, reason: "no variant to play")
        }
        guard
            var abr = ABRMachine(
                variants: presentation.variants, limits: limits, startEstimate: bandwidthEstimate.current)
        else {
            throw MediaError(.malformedManifest, url: url, operation: .probe, reason: "no variant to play")
        }
        let first = abr.nextSegment(duration: 0)
        let playlist = try ManifestLoader.playlist(first.variant.media, loading: loading)
        guard !playlist.segments.isEmpty else {
            throw MediaError(.malformedManifest, url: url, operation: .probe, reason: "the playlist lists no segment")
        }
        var state = State(reference: playlist, abr: abr)
        state.playlists[first.variant.id] = playlist
        state.decisions[0] = first.variant.id
        state.current = first.variant
        let start = VariantSwitch(
            from: nil, to: first.variant, segmentIndex: 0, seconds: 0, reason: first.reason.rawValue,
            estimate: abr.estimate)
        state.switches.append(start)
        if !playlist.hasEnd {
            // Live: play from the live edge (`liveOffset` before the end, by default three target durations, RFC
            // 8216 6.3.3); the playlist of the variant played is reloaded as the spec says.
            state.isLive = true
            state.startIndex = LivePlaylist.edgeIndex(of: playlist, offset: liveOffset)
            state.decisions = [state.startIndex: first.variant.id]
            state.readerIndex = state.startIndex
            state.downloadIndex = state.startIndex
            state.switches[0].segmentIndex = state.startIndex
            state.origin = playlist.segments[state.startIndex].start
        }
        // A live HLS presentation's audio rendition is reloaded too (StreamSession+LiveAudio.swift); a live MPD's
        // audio AdaptationSet is not played yet.
        let audioRendition =
            playlist.hasEnd || presentation.format == .hls
            ? presentation.audioRendition(for: first.variant, preferredLanguage: preferredAudioLanguage) : nil
        if let media = audioRendition?.media {
            let videoStart = state.isLive ? state.timelineSegment(state.startIndex) : nil
            state.audio = try AudioState.load(media, loading: loading, videoStart: videoStart)
        }
        let session = StreamSession(
            url: url, presentation: presentation, loading: loading, forwardSeconds: forwardSeconds,
            bandwidthEstimate: bandwidthEstimate, audioRendition: audioRendition, state: state, wallClock: originClock)
        guard startsThreads else { return session }
        let thread = Thread { [weak session] in
            while let session, session.downloadNext() {}
        }
        thread.name = "playctl-segments"
        thread.start()
        if state.isLive {
            let reloader = Thread { [weak session] in
                while let session, session.reloadLive() {}
            }
            reloader.name = "playctl-live"
            reloader.start()
        }
        if state.audio?.isLive == true {
            let reloader = Thread { [weak session] in
                while let session, session.reloadLiveAudio() {}
            }
            reloader.name = "playctl-live-audio"
            reloader.start()
        }
        return session
    }

    /// The presentation's duration (nil for live).
    public var duration: Double? {
        state.withLock { $0.reference.hasEnd ? $0.reference.duration : nil }
    }

    /// The variant switches so far, the first choice included (the newest ``switchHistoryLimit``).
    public var switches: [VariantSwitch] { state.withLock { $0.switches } }

    /// How many switches ``switches`` keeps: a long play that switches every few segments would grow the list
    /// forever (AVPlayerItemAccessLog keeps its events likewise bounded).
    public static let switchHistoryLimit = 100

    /// Bytes of segments downloaded ahead so far.
    public var bytesDownloaded: Int64 { state.withLock { $0.bytesDownloaded } }

    /// Calls `observer` with every later switch (on the thread that decided it, with no lock held); returns the
    /// switches so far (the newest 100), so that none is missed or told twice.
    @discardableResult
    public func observeSwitches(_ observer: @escaping @Sendable (VariantSwitch) -> Void) -> [VariantSwitch] {
        state.withLock { s in
            s.observers.append(observer)
            return s.switches
        }
    }

    /// The index of the first segment a reader reads: 0, or a live playlist's edge when it was loaded.
    public var startIndex: Int { state.withLock { $0.startIndex } }

    /// Whether it plays a live playlist (one without an end yet).
    public var isLive: Bool { state.withLock { $0.isLive && !$0.reference.hasEnd } }

    /// The index of the segment that holds `seconds` (from where the play started: a live playlist's edge).
    func index(containing seconds: Double) -> Int {
        state.withLock { s in
            let origin = s.origin
            return s.firstIndex + (s.reference.segments.lastIndex { $0.start <= seconds + origin + 1e-6 } ?? 0)
        }
    }

    /// Segment `index` of the variant decided for it (deciding now if no download has), with its variant; nil
    /// past the last segment. May load that variant's playlist (blocking).
    /// `reading`: asked by the primary reader about to read it; from then on its decision is never changed (the
    /// abandon rule leaves it alone).
    func segment(at index: Int, reading: Bool = false) throws(MediaError) -> (variant: Variant, segment: Segment)? {
        try waitForLiveSegment(index)
        let (decided, observers, change, dropped) = state.withLock { s in
            guard index < s.endIndex, droppedFromWindow(index, s) == nil else {
                let none = [@Sendable (VariantSwitch) -> Void]()
                return (nil as Variant?, none, nil as VariantSwitch?, droppedFromWindow(index, s))
            }
            if reading { s.readerIndex = index }
            let (variant, change) = decide(index, &s)
            return (variant, change == nil ? [] : s.observers, change, nil as MediaError?)
        }
        if let dropped { throw dropped }
        if let change { for observer in observers { observer(change) } }
        guard let decided else { return nil }
        return try segment(index, of: decided)
    }

    /// The key of an AES-128 segment (`#EXT-X-KEY:METHOD=AES-128`), fetched once per key URL. Blocking.
    /// - Throws: the loader's errors; `.malformedManifest` naming the key's URL when it is not 16 bytes long.
    func key(_ key: SegmentKey) throws(MediaError) -> [UInt8] {
        try keys.key(key.url, loading: loading)
    }

    /// New limits (an item's peak bit rate or maximum resolution changed while it plays): segments not read or
    /// downloaded yet are decided again under them, as AVPlayer applies a new `preferredPeakBitRate` to the
    /// segments it loads next.
    public func setLimits(_ limits: ABRLimits) {
        state.withLock { s in
            if let decision = s.abr.limitsChanged(limits) { s.pendingReason = decision.reason }
            redecideAhead(&s)
        }
        signal()
    }

    /// The priority of its fetches: `.playback`, or `.prefetch` for an item prepared ahead (its fetches pause while
    /// a player claims the link).
    public var priority: TransferPriority { state.withLock { $0.priority } }

    /// Makes its fetches `priority` from now on, the download under way included.
    public func setPriority(_ priority: TransferPriority) {
        let download = state.withLock { s -> RemoteByteSource? in
            s.priority = priority
            return s.downloading?.source
        }
        download?.setPriority(priority)
    }

    /// Where the player's playhead is (seconds of item time, from where the play started), told while a player
    /// on a real clock plays: downloads then have a deadline, and one too slow for it is given up for a lower
    /// variant (``ABRMachine/downloadProgress(variantID:bytes:expectedBytes:seconds:duration:)``).
    public func playheadMoved(to seconds: Double) {
        guard seconds.isFinite else { return }
        state.withLock { $0.playhead = (seconds, ContinuousClock.now) }
    }

    /// Playback ran out of media: the ABR machine drops below the current variant (and waits for more buffer before
    /// it switches up again); segments not read or downloaded yet are decided again.
    public func playbackStalled() {
        state.withLock { s in
            s.abr.bufferLevel(0)
            if let decision = s.abr.stalled() { s.pendingReason = decision.reason }
            redecideAhead(&s)
        }
        signal()
    }

    /// The primary reader starts segment `index`: downloads move ahead of it. Observers of the variants read
    /// (``observeVariantsRead(_:)``) are told when it is of another variant than the segment read before.
    func readerEntered(_ index: Int) {
        let (read, observers) = state.withLock { s -> (VariantRead?, [@Sendable (VariantRead) -> Void]) in
            s.readerIndex = index
            s.entered.insert(index)
            s.trimLiveWindow()
            // The reader fetches the segment itself when no download has begun it: downloads go on after it (a
            // download begun now would only join the reader's fetch).
            if s.downloadIndex <= index { s.downloadIndex = index + 1 }
            s.generation += 1
            guard let id = s.decisions[index], id != s.read?.variant.id,
                let variant = presentation.variants.first(where: { $0.id == id })
            else { return (nil, []) }
            let seconds = s.timelineSegment(index)?.start ?? 0
            s.read = VariantRead(segmentIndex: index, seconds: seconds, variant: variant)
            return (s.read, s.readObservers)
        }
        if let read { for observer in observers { observer(read) } }
        signal()
    }

    /// The primary reader moved to another place (a seek): downloads start over after `index`.
    func repositioned(to index: Int) {
        let stale = state.withLock { s -> RemoteByteSource? in
            s.readerIndex = index
            s.downloadIndex = index + 1
            s.generation += 1
            guard let downloading = s.downloading, downloading.index != index else { return nil }
            s.downloading = nil
            return downloading.source
        }
        stale?.close()
        signal()
    }

    /// Stops the downloads (the item left).
    public func close() {
        let source = state.withLock { s -> RemoteByteSource? in
            s.closed = true
            s.generation += 1
            defer { s.downloading = nil }
            return s.downloading?.source
        }
        source?.close()
        closeAudioDownload()
        signal()
    }

    func signal() {
        wake.lock()
        wake.broadcast()
        wake.unlock()
    }

    /// Runs `body` on the state, under its lock.
    func withState<R>(_ body: (inout State) -> R) -> R { state.withLock(body) }

    /// Waits until the state changes after `generation` (or the session closes, or `deadline` passes).
    func waitForChange(after generation: UInt64, until deadline: Date? = nil) {
        wake.lock()
        defer { wake.unlock() }
        while state.withLock({ $0.generation == generation && !$0.closed }) {
            if let deadline {
                if !wake.wait(until: deadline) { return }
            } else {
                wake.wait()
            }
        }
    }
}

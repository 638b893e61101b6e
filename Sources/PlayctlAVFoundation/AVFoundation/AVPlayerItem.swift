import Locking
import Playback
import Streaming

/// One piece of media to play, as AVFoundation's `AVPlayerItem`: a thin object over a playctl `PlayerItem`
/// (``playctlItem``). Nothing is opened until a player takes it.
///
/// Key-value observable: `status`, `error`, `duration`, `isPlaybackLikelyToKeepUp`, `isPlaybackBufferEmpty`,
/// `isPlaybackBufferFull`, `loadedTimeRanges`, `seekableTimeRanges`, `presentationSize` (see
/// ``PlayctlKeyValueObserving``). Every member may be used from any thread.
open class AVPlayerItem: NSObject, PlayctlKeyValueObserving, @unchecked Sendable {
    /// The engine's item.
    public let playctlItem: PlayerItem
    /// The asset the item plays.
    public let asset: AVAsset
    /// The keys the app asked to be loaded with the item (accepted: the engine loads everything when a player takes
    /// the item).
    public let automaticallyLoadedAssetKeys: [String]
    /// This item's key-value observations.
    public let keyValueObservers = KeyValueObservers()

    /// The state as the engine's delivered events left it (nil: never reported, read the engine).
    struct Observed {
        var status: Status = .unknown
        var duration: CMTime = .indefinite
        var error: NSError?
        var isPlaybackLikelyToKeepUp: Bool?
        var isPlaybackBufferEmpty: Bool?
        var isPlaybackBufferFull: Bool?
        var loadedTimeRanges: [CMTimeRange]?
    }

    let observed = Locked(Observed())
    /// The outputs added to the item (``outputs``).
    let itemOutputs = Locked([AVPlayerItemOutput]())
    /// The player that last took the item.
    let owner = Locked(WeakPlayer())
    /// ``timebase``, made when first read.
    private let madeTimebase = Locked<CMTimebase?>(nil)

    /// The item's timebase as its player plays it (see ``CMTimebase``); nil until a player has taken the item.
    public var timebase: CMTimebase? {
        guard owner.withLock({ $0.value }) != nil else { return nil }
        return madeTimebase.withLock { made in
            let timebase = made ?? CMTimebase(item: self)
            made = timebase
            return timebase
        }
    }

    /// The timebase if it was read (nothing to announce otherwise).
    var existingTimebase: CMTimebase? { madeTimebase.withLock { $0 } }

    struct WeakPlayer {
        weak var value: AVPlayer?
    }

    /// An item for `url` (a file URL, or http(s)).
    public convenience init(url: URL) {
        self.init(asset: AVURLAsset(url: url))
    }

    /// An item for `asset`.
    public convenience init(asset: AVAsset) {
        self.init(asset: asset, automaticallyLoadedAssetKeys: [String]())
    }

    /// An item for `asset`, naming the keys to load with it (see ``automaticallyLoadedAssetKeys``).
    public init(asset: AVAsset, automaticallyLoadedAssetKeys: [String]) {
        self.asset = asset
        self.automaticallyLoadedAssetKeys = automaticallyLoadedAssetKeys
        playctlItem = asset.makeEngineItem()
        super.init()
        Self.register(self)
        followSummaries()
    }

    /// An item for `asset`, naming the properties to load with it.
    public convenience init(asset: AVAsset, automaticallyLoadedAssetKeys: [AVPartialAsyncProperty<AVAsset>]) {
        self.init(asset: asset, automaticallyLoadedAssetKeys: automaticallyLoadedAssetKeys.map(\.name))
    }

    /// A wrapper of an item the engine made (a looper's copy).
    init(engineItem: PlayerItem) {
        playctlItem = engineItem
        asset = AVURLAsset(engineURL: engineItem.url)
        automaticallyLoadedAssetKeys = []
        super.init()
        Self.register(self)
        followSummaries()
    }

    // MARK: Status

    /// `.unknown` until a player has loaded it, then `.readyToPlay` or `.failed` (see ``error``).
    public var status: Status {
        if KeyValueSnapshot.isReading { return observed.withLock { $0.status } }
        return Status(playctlItem.status)
    }

    /// Why the item failed (domain ``AVFoundationErrorDomain``; the description names the file and FFmpeg's
    /// reason).
    public var error: Error? {
        if KeyValueSnapshot.isReading { return observed.withLock { $0.error } }
        return playctlItem.error.map { AVPlayerItem.nsError($0.description) }
    }

    /// The duration; `.indefinite` until loaded.
    public var duration: CMTime {
        if KeyValueSnapshot.isReading { return observed.withLock { $0.duration } }
        return CMTime(playctlItem.duration)
    }

    /// The picture's size as shown (rotation applied); zero until loaded and for audio.
    public var presentationSize: CGSize {
        if KeyValueSnapshot.isReading, observed.withLock({ $0.status }) != .readyToPlay { return .zero }
        guard let size = playctlItem.presentationSize else { return .zero }
        return CGSize(width: size.width, height: size.height)
    }

    // MARK: Buffering

    /// Whether playback is predicted to go on without stalling.
    public var isPlaybackLikelyToKeepUp: Bool {
        if KeyValueSnapshot.isReading, let value = observed.withLock({ $0.isPlaybackLikelyToKeepUp }) { return value }
        return playctlItem.isPlaybackLikelyToKeepUp
    }

    /// Whether the buffer is empty (playback will stall or end).
    public var isPlaybackBufferEmpty: Bool {
        if KeyValueSnapshot.isReading, let value = observed.withLock({ $0.isPlaybackBufferEmpty }) { return value }
        return playctlItem.isPlaybackBufferEmpty
    }

    /// Whether the buffer is full.
    public var isPlaybackBufferFull: Bool {
        if KeyValueSnapshot.isReading, let value = observed.withLock({ $0.isPlaybackBufferFull }) { return value }
        return playctlItem.isPlaybackBufferFull
    }

    /// The time ranges available without waiting: for an http(s) item those whose bytes are held; a local file is
    /// loaded whole (its whole duration once ready).
    public var loadedTimeRanges: [CMTimeRange] {
        if KeyValueSnapshot.isReading {
            let (ranges, status, duration) = observed.withLock { ($0.loadedTimeRanges, $0.status, $0.duration) }
            if let ranges { return ranges }
            return isLocal && status == .readyToPlay ? [CMTimeRange(start: .zero, duration: duration)] : []
        }
        if isLocal {
            return status == .readyToPlay ? [CMTimeRange(start: .zero, duration: duration)] : []
        }
        return playctlItem.loadedTimeRanges.map(CMTimeRange.init)
    }

    /// Where the item can seek: its whole duration, once ready.
    public var seekableTimeRanges: [CMTimeRange] {
        guard status == .readyToPlay, duration.isNumeric else { return [] }
        return [CMTimeRange(start: .zero, duration: duration)]
    }

    /// Seconds to buffer ahead (0: the player chooses).
    public var preferredForwardBufferDuration: TimeInterval {
        get { playctlItem.preferredForwardBufferDuration }
        set { playctlItem.preferredForwardBufferDuration = newValue }
    }

    /// How the audio plays at rates other than 1: `.timeDomain` (the default) and `.spectral` keep the pitch,
    /// `.varispeed` lets it follow the rate. Effective at once.
    public var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm {
        get { AVAudioTimePitchAlgorithm(playctlItem.audioTimePitchAlgorithm) }
        set { playctlItem.audioTimePitchAlgorithm = newValue.engineAlgorithm }
    }

    /// For a live stream: how far behind its live edge playback starts (`.invalid`, the default: the
    /// recommendation). Set it before the item plays.
    public var configuredTimeOffsetFromLive: CMTime {
        get { CMTime(playctlItem.configuredTimeOffsetFromLive) }
        set { playctlItem.configuredTimeOffsetFromLive = newValue.mediaTime }
    }

    /// For a live stream once loaded: the offset from the live edge the stream recommends (three target
    /// durations); `.invalid` otherwise.
    public var recommendedTimeOffsetFromLive: CMTime { CMTime(playctlItem.recommendedTimeOffsetFromLive) }

    /// A cap on the bit rate, in bits per second (0: none): an HLS or DASH item's variants are chosen under it; a
    /// progressive file has one rendition.
    public var preferredPeakBitRate: Double {
        get { playctlItem.preferredPeakBitRate }
        set { playctlItem.preferredPeakBitRate = newValue }
    }

    /// The largest picture the app wants (`.zero`: no limit): an HLS or DASH item's variants are chosen under it;
    /// a progressive file has one rendition to choose from.
    public var preferredMaximumResolution: CGSize {
        get {
            playctlItem.preferredMaximumResolution.map { CGSize(width: $0.width, height: $0.height) } ?? .zero
        }
        set {
            let limit = newValue.width > 0 && newValue.height > 0
            playctlItem.preferredMaximumResolution =
                limit ? Resolution(width: Int(newValue.width), height: Int(newValue.height)) : nil
        }
    }

    // MARK: Logs

    /// The access log: one event per playback session, once its first summary came; nil before.
    public func accessLog() -> AVPlayerItemAccessLog? {
        let events = logs.withLock { $0.access }
        return events.isEmpty ? nil : AVPlayerItemAccessLog(events: events)
    }

    /// The error log: one event per failure; nil while there was none.
    public func errorLog() -> AVPlayerItemErrorLog? {
        let events = logs.withLock { $0.errors }
        return events.isEmpty ? nil : AVPlayerItemErrorLog(events: events)
    }

    let logs = Locked(ItemLogs())

    /// Writes each session summary of the engine item into the access log (the stream ends when the engine item is
    /// gone; the task holds this wrapper only while it writes).
    private func followSummaries() {
        let summaries = playctlItem.metrics(forType: PlaybackSummaryEvent.self)
        let (uri, isLocal) = (playctlItem.url, isLocal)
        Task { [weak self] in
            for await summary in summaries {
                guard let self else { return }
                let variants = playctlItem.variantSwitches
                logs.withLock {
                    $0.record(
                        AVPlayerItemAccessLogEvent(summary: summary, uri: uri, isLocal: isLocal, variants: variants))
                }
                NotificationCenter.default.post(name: .AVPlayerItemNewAccessLogEntry, object: self)
            }
        }
    }

    /// Adds a failure to the error log (on the player's callback thread, after the engine reported it).
    func recordFailure(_ message: String) {
        let event = AVPlayerItemErrorLogEvent(
            date: Date(), uri: playctlItem.url, sessionID: nil, error: playctlItem.error, message: message)
        logs.withLock { $0.record(event) }
        NotificationCenter.default.post(name: .AVPlayerItemNewErrorLogEntry, object: self)
    }

    // MARK: Time

    /// The item's current time.
    public func currentTime() -> CMTime { CMTime(playctlItem.currentTime()) }

    /// Whether the item is read from a local file (no byte sources, no http).
    private var isLocal: Bool { playctlItem.loading == nil && playctlItem.makeSource == nil }

    // MARK: Registry

    private static let registry = Locked([UInt64: Weak]())

    private struct Weak {
        weak var item: AVPlayerItem?
    }

    private static func register(_ item: AVPlayerItem) {
        registry.withLock { registry in
            registry = registry.filter { $0.value.item != nil }
            registry[item.playctlItem.serialNumber] = Weak(item: item)
        }
    }

    /// The wrapper of the engine item numbered `serial`, while it exists.
    static func registered(_ serial: UInt64) -> AVPlayerItem? {
        registry.withLock { $0[serial]?.item }
    }

    /// Follows an `itemStatus` event.
    func observedStatusChanged(_ status: PlayerItemStatus, duration: MediaTime?, error: String?) {
        observed.withLock { observed in
            observed.status = Status(status)
            if let duration { observed.duration = CMTime(duration) }
            if let error { observed.error = AVPlayerItem.nsError(error) }
        }
    }

    static func nsError(_ description: String) -> NSError {
        NSError(
            domain: AVFoundationErrorDomain, code: AVError.Code.unknown.rawValue,
            userInfo: [NSLocalizedDescriptionKey: description])
    }
}

extension AVPlayerItem {
    /// Whether an item can be played, as `AVPlayerItem.Status` (same raw values).
    public enum Status: Int, Sendable, Hashable, CustomStringConvertible {
        case unknown = 0
        case readyToPlay = 1
        case failed = 2

        init(_ status: PlayerItemStatus) {
            switch status {
            case .unknown: self = .unknown
            case .readyToPlay: self = .readyToPlay
            case .failed: self = .failed
            }
        }

        public var description: String { PlayerItemStatus(rawValue: rawValue)?.description ?? "\(rawValue)" }
    }
}

/// `AVPlayerItem.Status`, by its Objective-C name.
public typealias AVPlayerItemStatus = AVPlayerItem.Status

import Locking
import Playback

/// Plays one item at a time, as AVFoundation's `AVPlayer`: a thin object over a playctl `Player`
/// (``playctlPlayer``), which does the work.
///
/// A new player follows the clock of ``PlayctlAVFoundation/current`` (real time unless a test set a manual clock).
/// Every member may be used from any thread. Key-value observable properties: `status`, `timeControlStatus`,
/// `reasonForWaitingToPlay`, `rate`, `defaultRate`, `currentItem`, `actionAtItemEnd`,
/// `automaticallyWaitsToMinimizeStalling`, `volume`, `isMuted` (see ``PlayctlKeyValueObserving``). Releasing the
/// player stops its playback and its threads.
open class AVPlayer: NSObject, PlayctlKeyValueObserving, @unchecked Sendable {
    /// The engine's player this one drives.
    public let playctlPlayer: Player
    /// This player's key-value observations.
    public let keyValueObservers = KeyValueObservers()
    /// Whether the engine waits for callbacks (manual and untimed clocks): time observers then run on their queue
    /// before the clock moves on.
    let waitsForCallbacks: Bool

    struct Observed {
        var rate: Float = 0
        var timeControlStatus: TimeControlStatus = .paused
        var reasonForWaitingToPlay: WaitingReason?
        var currentItem: AVPlayerItem?
    }

    struct Settings {
        var volume: Float = 1
        var isMuted = false
        var preventsDisplaySleepDuringVideoPlayback = true
        var allowsExternalPlayback = true
    }

    /// The observable state as the engine's delivered events left it.
    let observed = Locked(Observed())
    let settings = Locked(Settings())
    /// The wrappers of the items this player holds, by the engine item's serial number.
    let wrappers = Locked([UInt64: AVPlayerItem]())
    /// The completion handlers of `preroll(atRate:completionHandler:)` not called yet, each with the sequence number
    /// drawn when it was asked for (the engine's events before it do not answer it).
    let prerolls = Locked<[(since: UInt64, handler: @Sendable (Bool) -> Void)]>([])

    /// A player with no item (the designated initializer: a subclass calls `super.init()`).
    public override init() {
        let configuration = PlayctlAVFoundation.current
        let engine = Self.makeEngine(configuration)
        playctlPlayer = engine
        waitsForCallbacks = configuration.clock.waitsForCallbacks
        super.init()
        connect(engine)
    }

    /// A player of a new item for `url`.
    public convenience init(url: URL) {
        self.init(playerItem: AVPlayerItem(url: url))
    }

    /// A player of `item` (or of nothing).
    public convenience init(playerItem item: AVPlayerItem?) {
        self.init()
        if let item { replaceCurrentItem(with: item) }
    }

    /// Takes `engine`'s state and follows its events.
    private func connect(_ engine: Player) {
        observed.withLock { observed in
            observed.rate = engine.rate
            observed.timeControlStatus = TimeControlStatus(engine.timeControlStatus)
            observed.reasonForWaitingToPlay = engine.reasonForWaitingToPlay.map(WaitingReason.init)
        }
        engine.observeEvents { [weak self] event in self?.handle(event) }
    }

    /// The engine a new player of this class drives.
    class func makeEngine(_ configuration: PlayctlAVFoundation.Configuration) -> Player {
        Player(item: nil, clock: configuration.clock, audio: configuration.decodesAudio)
    }

    deinit { playctlPlayer.invalidate() }

    /// The engine items this player holds: its current item (a queue player: its whole queue).
    func heldEngineItems() -> [PlayerItem] {
        playctlPlayer.currentItem.map { [$0] } ?? []
    }

    // MARK: Status

    /// `.readyToPlay` from the start: the engine has no player-wide failure (an item's failure is the item's).
    public var status: Status { .readyToPlay }
    /// Always nil (see ``status``).
    public var error: Error? { nil }

    /// Paused, waiting (see ``reasonForWaitingToPlay``) or playing.
    public var timeControlStatus: TimeControlStatus {
        if KeyValueSnapshot.isReading { return observed.withLock { $0.timeControlStatus } }
        return TimeControlStatus(playctlPlayer.timeControlStatus)
    }

    /// Why the player waits; nil unless ``timeControlStatus`` is `.waitingToPlayAtSpecifiedRate`.
    public var reasonForWaitingToPlay: WaitingReason? {
        if KeyValueSnapshot.isReading { return observed.withLock { $0.reasonForWaitingToPlay } }
        return playctlPlayer.reasonForWaitingToPlay.map(WaitingReason.init)
    }

    // MARK: Rate

    /// The rate asked for: 0 when paused; while waiting, the rate playback will start at.
    public var rate: Float {
        get {
            if KeyValueSnapshot.isReading { return observed.withLock { $0.rate } }
            return playctlPlayer.rate
        }
        set { playctlPlayer.rate = newValue }
    }

    /// The rate ``play()`` uses (1 by default).
    public var defaultRate: Float {
        get { playctlPlayer.defaultRate }
        set {
            playctlPlayer.defaultRate = newValue
            keyValueObservers.changed(sequence: nil)
        }
    }

    /// Plays at ``defaultRate``.
    public func play() { playctlPlayer.play() }
    /// Sets the rate to 0.
    public func pause() { playctlPlayer.pause() }
    /// Plays at `rate` at once, without waiting for the buffer to be likely to keep up.
    public func playImmediately(atRate rate: Float) { playctlPlayer.playImmediately(atRate: rate) }

    /// With true (the default), starting waits until the buffer is likely to keep up, and a stall waits; with false,
    /// a stall pauses the player.
    public var automaticallyWaitsToMinimizeStalling: Bool {
        get { playctlPlayer.automaticallyWaitsToMinimizeStalling }
        set {
            playctlPlayer.automaticallyWaitsToMinimizeStalling = newValue
            keyValueObservers.changed(sequence: nil)
        }
    }

    // MARK: Items

    /// The item playing, or nil.
    public var currentItem: AVPlayerItem? {
        if KeyValueSnapshot.isReading { return observed.withLock { $0.currentItem } }
        return playctlPlayer.currentItem.flatMap { wrapper(for: $0.serialNumber) }
    }

    /// Replaces the current item (nil: none). Replacing it with itself does nothing. The rate is kept: a player
    /// that was playing waits with `.noItemToPlay` when given no item, as AVFoundation documents.
    public func replaceCurrentItem(with item: AVPlayerItem?) {
        if let item { adopt(item) }
        playctlPlayer.replaceCurrentItem(with: item?.playctlItem)
    }

    /// What happens when the item ends: `.pause` (the default), `.none`, or `.advance` (an ``AVQueuePlayer`` only;
    /// a plain player traps, as AVFoundation raises an exception).
    public var actionAtItemEnd: ActionAtItemEnd {
        get { ActionAtItemEnd(playctlPlayer.actionAtItemEnd) }
        set {
            precondition(
                newValue != .advance || self is AVQueuePlayer, "actionAtItemEnd .advance needs an AVQueuePlayer")
            playctlPlayer.actionAtItemEnd = newValue.engineValue
            keyValueObservers.changed(sequence: nil)
        }
    }

    /// The current item's time (a pending seek's target while one is in flight).
    public func currentTime() -> CMTime { CMTime(playctlPlayer.currentTime()) }

    // MARK: Settings kept as set

    /// The audio volume, 0 to 1. Kept and reported (the engine's null audio device plays nothing to scale).
    public var volume: Float {
        get { settings.withLock { $0.volume } }
        set {
            settings.withLock { $0.volume = min(max(newValue, 0), 1) }
            keyValueObservers.changed(sequence: nil)
        }
    }

    /// Whether the audio is muted. Kept and reported, as ``volume``.
    public var isMuted: Bool {
        get { settings.withLock { $0.isMuted } }
        set {
            settings.withLock { $0.isMuted = newValue }
            keyValueObservers.changed(sequence: nil)
        }
    }

    /// Accepted and kept (there is no display to keep awake).
    public var preventsDisplaySleepDuringVideoPlayback: Bool {
        get { settings.withLock { $0.preventsDisplaySleepDuringVideoPlayback } }
        set { settings.withLock { $0.preventsDisplaySleepDuringVideoPlayback = newValue } }
    }

    /// Accepted and kept (there is no external playback).
    public var allowsExternalPlayback: Bool {
        get { settings.withLock { $0.allowsExternalPlayback } }
        set { settings.withLock { $0.allowsExternalPlayback = newValue } }
    }
}

extension ClockMode {
    /// Whether players on this clock wait for the callbacks they hand out (manual and untimed clocks).
    var waitsForCallbacks: Bool {
        if case .host = self { return false }
        return true
    }
}

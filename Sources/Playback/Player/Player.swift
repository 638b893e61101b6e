import Foundation

/// Plays one item at a time with `AVPlayer`'s model: `rate`, `timeControlStatus` and its waiting reason, seeks
/// that complete with `false` when superseded, time observers, and one ordered event stream.
///
/// Decoding and presentation run on threads of the player's own, never on Swift's cooperative pool. All methods
/// may be called from any thread or task, and from the player's own callbacks.
///
/// ## Callbacks
/// Everything that runs app code (video sinks, layer observers, audio taps, time observers, event and metric
/// observers and streams, seek completion handlers) runs on the player's **callback executor**: a serial queue of
/// the player's own, one callback at a time, in the order things happened; never on the engine thread and never
/// under a lock of the player, so a callback may call the player (read its rate, seek, pause, replace the item,
/// invalidate it). What such a call causes is delivered after the callback returns. Under the manual and untimed
/// clocks the engine waits for the callbacks it hands out, so they run at the clock time they were called for,
/// and `ManualClock.advance(by:)` returns after them. Call ``invalidate()`` (or drop the player) to stop its
/// threads.
open class Player: @unchecked Sendable {
    let core: PlayerCore
    /// The seek bar's drag, when one is going on (`beginScrubbing()`).
    let scrubbing = ScrubDriver()

    /// A player for `item` (or none), following `clock`. With `audio` false, audio is not decoded at all;
    /// `audioOutput` says where it is played (the null device unless asked: see ``AudioOutput``).
    /// `decoderThreads` is the video decoder's thread count: 0 lets FFmpeg choose (the CPUs plus one, frame
    /// threading: each thread holds frames in flight); apps that run several players at once, as a feed does, give
    /// each fewer (see `FeedConfiguration.decoderThreads`). `decodedVideoBytes` bounds the decoded pictures queued
    /// ahead of presentation (2 to 24 of them: ``defaultDecodedVideoBytes`` holds five 720p pictures, 0.17 s at
    /// 30 fps); a deeper queue rides out a decoder that a busy machine holds back for longer, at that many more bytes.
    public init(
        item: PlayerItem? = nil, clock: ClockMode = .host, audio: Bool = true, audioOutput: AudioOutput = .null,
        decoderThreads: Int = 0, decodedVideoBytes: Int = Player.defaultDecodedVideoBytes
    ) {
        core = PlayerCore(
            clock: clock, actionAtItemEnd: .pause, audioEnabled: audio, audioOutput: audioOutput,
            decoderThreads: decoderThreads, decodedVideoBytes: decodedVideoBytes)
        core.start()
        if let item { replaceCurrentItem(with: item) }
    }

    /// The decoded pictures a player queues ahead of presentation by default, in bytes (``init(item:clock:audio:audioOutput:decoderThreads:decodedVideoBytes:)``).
    public static let defaultDecodedVideoBytes = 8 << 20

    /// The video decoder threads this player's items decode on (0: FFmpeg's choice), as made.
    public var decoderThreads: Int { core.decoderThreads }

    /// The bytes of decoded pictures this player's items queue ahead of presentation, as made.
    public var decodedVideoBytes: Int { core.decodedVideoBytes }

    init(core: PlayerCore) {
        self.core = core
        core.start()
    }

    deinit { core.shutdown() }

    /// Stops decoding and the player's threads; the event stream ends. The player does nothing afterwards.
    public func invalidate() { core.shutdown() }

    /// Every event of this player from now on, in order (each call is a new independent subscriber).
    public func events(bufferLimit: Int? = nil) -> AsyncStream<PlayerEvent> {
        core.subscribing { start in core.events.subscribe(after: start, bufferLimit: bufferLimit) { $0 } }
    }

    /// Calls `observer` with every event from now on, in order, on the player's callback executor (see
    /// "Callbacks" above): an exact trace with no consumer task to wait for. It may call the player.
    public func observeEvents(_ observer: @escaping @Sendable (PlayerEvent) -> Void) {
        core.subscribing { start in core.events.addSynchronousObserver(after: start, observer) }
    }

    /// Returns once every callback this player handed to its callback executor before the call (events, outputs,
    /// observers, completions) has run, including those of a locked section of the engine in progress at the call
    /// (a seek's landing completes the seek before it presents what is at the landing: a task resumed by the
    /// completion that then awaits this gets the landing's frame and cues too). Must not be awaited from one of the
    /// player's own callbacks.
    public func callbacksDelivered() async {
        core.read { _ in }
        await core.executor.drain()
    }

    // MARK: Items

    /// The item playing, or nil.
    public var currentItem: PlayerItem? { core.read { $0.currentItem } }

    /// Replaces the current item (nil for none). The rate is kept: with no item and a nonzero rate the player
    /// waits with `.noItemToPlay`.
    public func replaceCurrentItem(with item: PlayerItem?) {
        if let item, let other = item.state.withLock({ $0.core }), other !== core { other.detach(item) }
        core.mutate { core in
            guard item == nil || core.currentItem !== item else { return }
            core.makeCurrent(item, at: core.clockNow(), reason: .replaced)
        }
    }

    /// What happens when the current item ends: `.pause` (the default for `Player`), `.none` or `.advance`.
    public var actionAtItemEnd: ActionAtItemEnd {
        get { core.read { $0.state.actionAtItemEnd } }
        set { core.mutate { $0.state.actionAtItemEnd = newValue } }
    }

    // MARK: Media selection

    /// The languages the player prefers for `characteristic` when an item loads, like
    /// `AVPlayer.setMediaSelectionCriteria(_:forMediaCharacteristic:)`: the first playable option in the first
    /// preferred language that has one is selected (unless the app selected an option of the item itself). Applies
    /// to items that load afterwards. Nil removes the criteria.
    public func setMediaSelectionCriteria(
        _ criteria: MediaSelectionCriteria?, forMediaCharacteristic characteristic: MediaCharacteristic
    ) {
        core.mutate { $0.state.selectionRules.criteria[characteristic] = criteria }
    }

    /// The criteria set for `characteristic`, if any.
    public func mediaSelectionCriteria(
        forMediaCharacteristic characteristic: MediaCharacteristic
    )
        -> MediaSelectionCriteria?
    {
        core.read { $0.state.selectionRules.criteria[characteristic] }
    }

    /// Whether items select by the criteria when they load (true, the default); with false, audio plays its default
    /// track and subtitles show only forced subtitles in the audio's language, unless the app selects.
    public var appliesMediaSelectionCriteriaAutomatically: Bool {
        get { core.read { $0.state.selectionRules.appliesCriteriaAutomatically } }
        set { core.mutate { $0.state.selectionRules.appliesCriteriaAutomatically = newValue } }
    }

    // MARK: Rate and status

    /// The playback rate: 0 when paused; while waiting, the rate playback will start at.
    public var rate: Float {
        get { core.read { $0.state.control.rate } }
        set { core.mutate { $0.perform($0.state.control.setRate(newValue)) } }
    }

    /// The rate `play()` uses.
    public var defaultRate: Float {
        get { core.read { $0.state.control.defaultRate } }
        set { core.mutate { $0.state.control.setDefaultRate(newValue) } }
    }

    public var timeControlStatus: TimeControlStatus { core.read { $0.state.control.timeControlStatus } }
    public var reasonForWaitingToPlay: WaitingReason? { core.read { $0.state.control.reasonForWaitingToPlay } }

    /// With true (the default), starting waits until the buffer is likely to keep up, and a stall waits;
    /// with false, a stall pauses the player (rate 0).
    public var automaticallyWaitsToMinimizeStalling: Bool {
        get { core.read { $0.state.control.automaticallyWaitsToMinimizeStalling } }
        set { core.mutate { $0.perform($0.state.control.setAutomaticallyWaitsToMinimizeStalling(newValue)) } }
    }

    /// `rate = defaultRate`.
    public func play() { core.mutate { $0.perform($0.state.control.play()) } }
    /// `rate = 0`.
    public func pause() { core.mutate { $0.perform($0.state.control.pause()) } }
    /// Plays at `rate` at once, without waiting for the buffer to be likely to keep up.
    public func playImmediately(atRate rate: Float) {
        core.mutate { $0.perform($0.state.control.playImmediately(atRate: rate)) }
    }

    /// The current item's time (a pending seek's target while one is in flight).
    public func currentTime() -> MediaTime { core.read { $0.reportedTime(at: $0.clockNow()) } }

    // MARK: Seeking

    /// Seeks the current item. Zero tolerances seek exactly (the frame on screen at `time`); infinite tolerances
    /// (the default) land on the keyframe at or before it. Returns false when superseded by a newer seek, cancelled,
    /// or when there is no ready item. Returns after the seek's completion event was delivered.
    @discardableResult
    public func seek(
        to time: MediaTime, toleranceBefore: MediaTime = .positiveInfinity,
        toleranceAfter: MediaTime = .positiveInfinity
    ) async -> Bool {
        await core.seek(item: nil, to: time, exact: toleranceBefore == .zero && toleranceAfter == .zero, origin: .api)
    }

    /// Seeks as `seek(to:toleranceBefore:toleranceAfter:)`, asked for at once on the calling thread (from a time
    /// observer, it takes effect at the observed time); `completionHandler` is called exactly once, on the
    /// player's callback executor.
    public func seek(
        to time: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime,
        completionHandler: @escaping @Sendable (Bool) -> Void
    ) {
        core.requestSeek(
            item: nil, to: time, exact: toleranceBefore == .zero && toleranceAfter == .zero,
            origin: .api, completion: completionHandler)
    }

    /// Seeks as `seek(to:toleranceBefore:toleranceAfter:)`, recording where the request came from.
    @discardableResult
    public func seek(to time: MediaTime, exact: Bool, origin: SeekOrigin) async -> Bool {
        await core.seek(item: nil, to: time, exact: exact, origin: origin)
    }

    /// Completes every seek in flight with `false`.
    public func cancelPendingSeeks() { core.cancelPendingSeeks() }

    // MARK: Observers and outputs

    /// Calls `block` every `interval` seconds of item time while playing, and on jumps, starts and stops, on the
    /// player's callback executor.
    public func addPeriodicTimeObserver(
        forInterval interval: MediaTime,
        using block: @escaping @Sendable (MediaTime) -> Void
    ) -> TimeObserverToken {
        core.mutate { $0.state.observers.addPeriodic(interval: interval.seconds, block: block) }
    }

    /// Calls `block` when playback crosses one of `times`, on the player's callback executor.
    public func addBoundaryTimeObserver(
        forTimes times: [MediaTime],
        using block: @escaping @Sendable (MediaTime) -> Void
    ) -> TimeObserverToken {
        core.mutate { $0.state.observers.addBoundary(times: times, block: block) }
    }

    public func removeTimeObserver(_ token: TimeObserverToken) { core.mutate { $0.state.observers.remove(token) } }

    /// Adds a pull output (`VideoOutput`) or push sink (`VideoSink`).
    public func add(_ output: VideoOutput) { addReceiver(output) }
    public func add(_ sink: VideoSink) { addReceiver(sink) }
    public func add(_ tap: AudioTap) { core.mutate { $0.state.outputs.audioTaps.append(tap) } }

    func addReceiver(_ receiver: any VideoFrameReceiver) { core.mutate { $0.state.outputs.receivers.append(receiver) } }
    func removeReceiver(_ receiver: any VideoFrameReceiver) {
        core.mutate { $0.state.outputs.receivers.removeAll { $0 === receiver } }
    }

    /// Frames shown so far, frames dropped because they were late (host clock only), and frames whose delivery to
    /// app callbacks was skipped because earlier ones still waited (host clock only; see ``VideoSink``).
    public var statistics: (framesRendered: Int, framesDropped: Int, frameCallbacksSkipped: Int) {
        core.read { core in
            let presentation = core.state.presentation
            return (presentation.framesRendered, presentation.framesDropped, presentation.frameCallbacksSkipped)
        }
    }

    /// Under a host clock: how far from their due time frames were shown while playing, in seconds (the median,
    /// 99th percentile and maximum of the absolute error), over `count` frames.
    public var presentationError: (p50: Double, p99: Double, max: Double, count: Int) {
        let errors = core.read { $0.state.presentation.presentationErrors }.map(abs).sorted()
        guard let last = errors.last else { return (0, 0, 0, 0) }
        return (errors[errors.count / 2], errors[min(errors.count - 1, errors.count * 99 / 100)], last, errors.count)
    }

    /// Clock time in seconds since the player was created (virtual under manual and untimed clocks).
    public var clockTime: Double { core.read { $0.clockNow() } }

    // MARK: Audio output

    /// The gain of the audio played (0...1, like `AVPlayer.volume`); applied to what a sound server's device
    /// plays, as it is written (heard after the device's latency).
    public var volume: Float {
        get { core.read { $0.state.outputs.volume } }
        set { core.mutate { $0.state.outputs.volume = newValue.isFinite ? min(max(newValue, 0), 1) : 1 } }
    }

    /// Whether the audio is silenced (like `AVPlayer.isMuted`).
    public var isMuted: Bool {
        get { core.read { $0.state.outputs.muted } }
        set { core.mutate { $0.state.outputs.muted = newValue } }
    }

    /// Whether the audio plays on an audio output device now (``AudioOutput/pulse(sink:server:)`` or
    /// ``AudioOutput/device(_:)`` connected and alive).
    public var isPlayingToAudioDevice: Bool { core.read { $0.writesToDevice } }

    /// Why the audio output device cannot be used (missing, or gone mid-play), if it failed.
    public var audioDeviceError: AudioDeviceError? { core.read { $0.state.device.failure } }

    /// Host clock: the audio clock minus the time of the frame on screen when it was shown (seconds, as mpv's
    /// `avsync`), at the last frame shown while playing; nil before. With a sound server's device the audio
    /// clock is the media time being heard; otherwise the player's own playhead.
    public var avsync: Double? { core.read { $0.state.presentation.avsync } }

    /// ``avsync`` over the frames shown while playing on a sound server's device: the median, 99th percentile and
    /// maximum of its absolute value, in seconds, and how many frames (the first 65536).
    public var avsyncStatistics: (p50: Double, p99: Double, max: Double, count: Int) {
        let offsets = core.read { $0.state.presentation.avsyncSamples }.map(abs).sorted()
        guard let last = offsets.last else { return (0, 0, 0, 0) }
        return (
            offsets[offsets.count / 2], offsets[min(offsets.count - 1, offsets.count * 99 / 100)], last, offsets.count
        )
    }
}

import Dispatch
import Foundation
import MediaIO

/// Plays one item at a time with `AVPlayer`'s model: `rate`, `timeControlStatus` and its waiting reason, seeks
/// that complete with `false` when superseded, time observers, and one ordered event stream.
///
/// Decoding and presentation run on threads of the player's own, never on Swift's cooperative pool. All methods
/// may be called from any thread or task. Call ``invalidate()`` (or drop the player) to stop its threads.
open class Player: @unchecked Sendable {
    let engine: PlayerEngine

    /// A player for `item` (or none), following `clock`. With `audio` false, audio is not decoded at all.
    public init(item: PlayerItem? = nil, clock: ClockMode = .host, audio: Bool = true) {
        engine = PlayerEngine(clock: clock, actionAtItemEnd: .pause, audioEnabled: audio)
        engine.start()
        if let item { replaceCurrentItem(with: item) }
    }

    init(engine: PlayerEngine) {
        self.engine = engine
        engine.start()
    }

    deinit { engine.shutdown() }

    /// Stops decoding and the player's threads; the event stream ends. The player does nothing afterwards.
    public func invalidate() { engine.shutdown() }

    /// Every event of this player from now on, in order (each call is a new independent subscriber).
    public func events(bufferLimit: Int? = nil) -> AsyncStream<PlayerEvent> {
        engine.events.subscribe(bufferLimit: bufferLimit)
    }

    /// Calls `observer` on the engine thread, under the engine's lock, for every event as it is emitted: a trace
    /// with no consumer task to wait for. The observer must be quick and must not call the player.
    public func observeEvents(_ observer: @escaping @Sendable (PlayerEvent) -> Void) {
        engine.events.addSynchronousObserver(observer)
    }

    // MARK: Items

    /// The item playing, or nil.
    public var currentItem: PlayerItem? { locked { $0.currentItem } }

    /// Replaces the current item (nil for none). The rate is kept: with no item and a nonzero rate the player
    /// waits with `.noItemToPlay`.
    public func replaceCurrentItem(with item: PlayerItem?) {
        locked { engine in
            let now = engine.clockNow()
            if let item, engine.currentItem !== item {
                if let other = item.state.withLock({ $0.engine }), other !== engine { other.detach(item) }
            }
            engine.makeCurrent(item, at: now, reason: .replaced)
        }
    }

    /// What happens when the current item ends: `.pause` (the default for `Player`), `.none` or `.advance`.
    public var actionAtItemEnd: ActionAtItemEnd {
        get { locked { $0.actionAtItemEnd } }
        set { locked { $0.actionAtItemEnd = newValue } }
    }

    // MARK: Rate and status

    /// The playback rate: 0 when paused; while waiting, the rate playback will start at.
    public var rate: Float {
        get { locked { $0.control.rate } }
        set { locked { $0.perform($0.control.setRate(newValue)) } }
    }

    /// The rate `play()` uses.
    public var defaultRate: Float {
        get { locked { $0.control.defaultRate } }
        set { locked { $0.control.setDefaultRate(newValue) } }
    }

    public var timeControlStatus: TimeControlStatus { locked { $0.control.timeControlStatus } }
    public var reasonForWaitingToPlay: WaitingReason? { locked { $0.control.reasonForWaitingToPlay } }

    /// With true (the default), starting waits until the buffer is likely to keep up, and a stall waits;
    /// with false, a stall pauses the player (rate 0).
    public var automaticallyWaitsToMinimizeStalling: Bool {
        get { locked { $0.control.automaticallyWaitsToMinimizeStalling } }
        set { locked { $0.perform($0.control.setAutomaticallyWaitsToMinimizeStalling(newValue)) } }
    }

    /// `rate = defaultRate`.
    public func play() { locked { $0.perform($0.control.play()) } }
    /// `rate = 0`.
    public func pause() { locked { $0.perform($0.control.pause()) } }
    /// Plays at `rate` at once, without waiting for the buffer to be likely to keep up.
    public func playImmediately(atRate rate: Float) { locked { $0.perform($0.control.playImmediately(atRate: rate)) } }

    /// The current item's time (a pending seek's target while one is in flight).
    public func currentTime() -> MediaTime { locked { $0.reportedTime(at: $0.clockNow()) } }

    // MARK: Seeking

    /// Seeks the current item. Zero tolerances seek exactly (the frame on screen at `time`); infinite tolerances
    /// (the default) land on the keyframe at or before it. Returns false when superseded by a newer seek, cancelled,
    /// or when there is no ready item.
    @discardableResult
    public func seek(to time: MediaTime, toleranceBefore: MediaTime = .positiveInfinity,
                     toleranceAfter: MediaTime = .positiveInfinity) async -> Bool {
        await engine.seek(item: nil, to: time, exact: toleranceBefore == .zero && toleranceAfter == .zero, origin: .api)
    }

    /// Seeks as `seek(to:toleranceBefore:toleranceAfter:)`, asked for at once on the calling thread (from a time
    /// observer, it takes effect at the observed time); `completionHandler` is called exactly once, on a
    /// background queue.
    public func seek(to time: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime,
                     completionHandler: @escaping @Sendable (Bool) -> Void) {
        engine.requestSeek(item: nil, to: time, exact: toleranceBefore == .zero && toleranceAfter == .zero,
                           origin: .api) { finished in DispatchQueue.global().async { completionHandler(finished) } }
    }

    /// Seeks as `seek(to:toleranceBefore:toleranceAfter:)`, recording where the request came from.
    @discardableResult
    public func seek(to time: MediaTime, exact: Bool, origin: SeekOrigin) async -> Bool {
        await engine.seek(item: nil, to: time, exact: exact, origin: origin)
    }

    /// Completes every seek in flight with `false`.
    public func cancelPendingSeeks() { engine.cancelPendingSeeks() }

    // MARK: Observers and outputs

    /// Calls `block` every `interval` seconds of item time while playing, and on jumps, starts and stops.
    /// The block runs on the player's engine thread.
    public func addPeriodicTimeObserver(forInterval interval: MediaTime,
                                        using block: @escaping @Sendable (MediaTime) -> Void) -> TimeObserverToken {
        locked { $0.observers.addPeriodic(interval: interval.seconds, block: block) }
    }

    /// Calls `block` when playback crosses one of `times`.
    public func addBoundaryTimeObserver(forTimes times: [MediaTime],
                                        using block: @escaping @Sendable (MediaTime) -> Void) -> TimeObserverToken {
        locked { $0.observers.addBoundary(times: times, block: block) }
    }

    public func removeTimeObserver(_ token: TimeObserverToken) { locked { $0.observers.remove(token) } }

    /// Adds a pull output (`VideoOutput`) or push sink (`VideoSink`).
    public func add(_ output: VideoOutput) { locked { $0.receivers.append(output) } }
    public func add(_ sink: VideoSink) { locked { $0.receivers.append(sink) } }
    public func add(_ tap: AudioTap) { locked { $0.audioTaps.append(tap) } }

    func addReceiver(_ receiver: VideoFrameReceiver) { locked { $0.receivers.append(receiver) } }
    func removeReceiver(_ receiver: VideoFrameReceiver) { locked { $0.receivers.removeAll { $0 === receiver } } }

    /// Frames shown so far, and frames dropped because they were late (host clock only).
    public var statistics: (framesRendered: Int, framesDropped: Int) {
        locked { ($0.framesRendered, $0.framesDropped) }
    }

    /// Under a host clock: how far from their due time frames were shown while playing, in seconds (the median,
    /// 99th percentile and maximum of the absolute error), over `count` frames.
    public var presentationError: (p50: Double, p99: Double, max: Double, count: Int) {
        let errors = locked { $0.presentationErrors }.map(abs).sorted()
        guard let last = errors.last else { return (0, 0, 0, 0) }
        return (errors[errors.count / 2], errors[min(errors.count - 1, errors.count * 99 / 100)], last, errors.count)
    }

    /// Clock time in seconds since the player was created (virtual under manual and untimed clocks).
    public var clockTime: Double { locked { $0.clockNow() } }

    func locked<T>(_ body: (PlayerEngine) throws -> T) rethrows -> T {
        engine.condition.lock()
        defer {
            engine.condition.broadcast()
            engine.condition.unlock()
        }
        return try body(engine)
    }
}

extension PlayerEngine {
    /// Removes `item` from this player (it is being given to another one).
    func detach(_ item: PlayerItem) {
        condition.lock()
        if item === currentItem {
            makeCurrent(nil, at: clockNow(), reason: .replaced)
        } else if let index = items.firstIndex(where: { $0 === item }) {
            items.remove(at: index)
            release(item)
        }
        condition.broadcast()
        condition.unlock()
    }
}

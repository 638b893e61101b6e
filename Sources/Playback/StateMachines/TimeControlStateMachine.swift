/// The rate and time-control status of a player, with `AVPlayer`'s semantics, as a pure state machine.
///
/// Feed it what the user asks (`setRate`, `playImmediately`, ...) and what the engine observes
/// (item readiness, buffer reports, stalls, the end of the item, seeks); perform the returned
/// ``Action``s in order. It never touches media, threads or time.
///
/// ## How the status is decided
/// - Rate zero: always `.paused`.
/// - Nonzero rate, no current item: waiting, `.noItemToPlay` (the rate is kept).
/// - Nonzero rate, the item is still loading: waiting, `.evaluatingBufferingRate`.
/// - Nonzero rate, the item is ready, **starting** (from paused or waiting, after a stall, a new item,
///   or, with automatic waiting, after a seek lands):
///   - `automaticallyWaitsToMinimizeStalling` true: play when the buffer is likely to keep up; wait with
///     `.evaluatingBufferingRate` while no buffer report has arrived since the item changed or a seek
///     started; wait with `.toMinimizeStalls` when the last report said it is not likely to keep up.
///   - `playImmediately(atRate:)` with automatic waiting: play unless the buffer is known to be empty;
///     if it is, behave as a stall does: wait with `.toMinimizeStalls`.
///   - `automaticallyWaitsToMinimizeStalling` false: play unless the buffer is known to be empty; if it is,
///     wait with `.evaluatingBufferingRate` and play as soon as a report says it is not empty.
/// - Once `.playing`, buffer reports alone never stop playback (as in AVPlayer, a buffer that is not
///   likely to keep up plays on until it actually runs dry): only `stalled()`, a zero rate, a new or failed
///   item, or (with automatic waiting) a seek landing in an unbuffered region leave `.playing`.
///
/// A failed item cannot play: the rate drops to zero when it fails, and nonzero rates are refused
/// (the machine returns no actions) until another item is set.
public struct TimeControlStateMachine: Sendable {
    private enum Item: Sendable { case none, loading, ready, failed }
    private enum Status: Sendable, Equatable {
        case paused
        case waiting(WaitingReason)
        case playing
    }

    private var item: Item = .none
    private var status: Status = .paused
    /// The last buffer report: nil while none arrived since the item changed or a seek started.
    private var likelyToKeepUp: Bool?
    /// Whether the buffer is known to be empty (an unknown buffer counts as not empty).
    private var bufferEmpty = false

    /// The requested playback rate; zero when paused. While waiting it is the rate playback will start at.
    public private(set) var rate: Float = 0
    /// The rate `play()` uses. Always positive and finite.
    public private(set) var defaultRate: Float
    /// Whether starting waits until the buffer is likely to keep up, and a stall waits instead of pausing.
    public private(set) var automaticallyWaitsToMinimizeStalling: Bool

    /// A paused player with no item.
    /// - Parameters:
    ///   - defaultRate: the rate `play()` uses; values that are not positive and finite are replaced by 1.
    ///   - automaticallyWaitsToMinimizeStalling: AVPlayer's default is true.
    public init(defaultRate: Float = 1, automaticallyWaitsToMinimizeStalling: Bool = true) {
        self.defaultRate = defaultRate.isFinite && defaultRate > 0 ? defaultRate : 1
        self.automaticallyWaitsToMinimizeStalling = automaticallyWaitsToMinimizeStalling
    }

    /// `.paused` exactly when the rate is zero; `.playing` only with a ready item and a nonzero rate.
    public var timeControlStatus: TimeControlStatus {
        switch status {
        case .paused: return .paused
        case .waiting: return .waitingToPlayAtSpecifiedRate
        case .playing: return .playing
        }
    }

    /// Why the player waits; nil unless `timeControlStatus` is `.waitingToPlayAtSpecifiedRate`.
    public var reasonForWaitingToPlay: WaitingReason? {
        if case .waiting(let reason) = status { return reason }
        return nil
    }

    // MARK: - User requests

    /// Sets the rate, like `AVPlayer.rate`. Zero pauses; a positive rate starts (or, while playing, changes)
    /// playback following the rules above. Negative (reverse playback is not supported) and non-finite rates
    /// are ignored, and so are positive rates while the current item has failed: no actions.
    public mutating func setRate(_ newRate: Float) -> [Action] {
        guard newRate.isFinite, newRate >= 0, newRate == 0 || item != .failed else { return [] }
        return transition { $0.rate = newRate }
    }

    /// `setRate(defaultRate)`, like `AVPlayer.play()`.
    public mutating func play() -> [Action] { setRate(defaultRate) }

    /// `setRate(0)`, like `AVPlayer.pause()`.
    public mutating func pause() -> [Action] { setRate(0) }

    /// Sets the rate `play()` uses, like `AVPlayer.defaultRate`; never changes the current rate.
    /// Values that are not positive and finite are ignored.
    public mutating func setDefaultRate(_ newDefault: Float) {
        guard newDefault.isFinite, newDefault > 0 else { return }
        defaultRate = newDefault
    }

    /// Like `AVPlayer.playImmediately(atRate:)`: with a ready item, plays at once even if the buffer is not
    /// likely to keep up, unless it is known to be empty (then it behaves as a stall does, without a stall
    /// notification: waiting `.toMinimizeStalls`, or with automatic waiting off, waiting for the first data).
    /// Without a ready item it is `setRate(_:)`: the request does not outlive the current state.
    /// A zero rate pauses; rates `setRate(_:)` ignores are ignored.
    public mutating func playImmediately(atRate newRate: Float) -> [Action] {
        guard newRate.isFinite, newRate >= 0, newRate == 0 || item != .failed else { return [] }
        return transition(immediate: true) { $0.rate = newRate }
    }

    /// Like `AVPlayer.automaticallyWaitsToMinimizeStalling`. Turning it off while waiting for the buffer
    /// starts playback unless the buffer is known to be empty. Never stops playback.
    public mutating func setAutomaticallyWaitsToMinimizeStalling(_ waits: Bool) -> [Action] {
        transition { $0.automaticallyWaitsToMinimizeStalling = waits }
    }

    // MARK: - Item events

    /// The current item was replaced (`replaceCurrentItem(with:)`, or an advance the driver performed).
    /// The rate is kept; the status is decided afresh, so `.playing` continues only if the new item is ready
    /// and its buffer is likely to keep up (or automatic waiting is off). With no item and a nonzero rate the
    /// player waits with `.noItemToPlay`.
    /// - Parameter likelyToKeepUp: the new item's buffer state if known; nil means no report yet.
    public mutating func itemChanged(hasItem: Bool, isReady: Bool, likelyToKeepUp: Bool? = nil) -> [Action] {
        transition(reconsiderPlaying: true) {
            $0.item = hasItem ? (isReady ? .ready : .loading) : .none
            $0.likelyToKeepUp = hasItem ? likelyToKeepUp : nil
            $0.bufferEmpty = false
        }
    }

    /// The current item finished loading and can be played. Ignored without a loading item.
    public mutating func itemBecameReady() -> [Action] {
        guard item == .loading else { return [] }
        return transition { $0.item = .ready }
    }

    /// The current item failed (while loading, or with a fatal playback error). The rate becomes zero and
    /// the player pauses; nonzero rates are refused until another item is set. Ignored without an item.
    public mutating func itemFailed() -> [Action] {
        guard item == .loading || item == .ready else { return [] }
        return transition {
            $0.item = .failed
            $0.rate = 0
        }
    }

    // MARK: - Playback events

    /// A buffer report for the current item (see ``BufferingState``; pass `likelyToKeepUp` true when the
    /// buffer is full, as AVPlayer starts on a full buffer). It may start a waiting player; it never stops
    /// a playing one.
    public mutating func bufferChanged(likelyToKeepUp: Bool, bufferEmpty: Bool) -> [Action] {
        transition {
            $0.likelyToKeepUp = likelyToKeepUp
            $0.bufferEmpty = bufferEmpty
        }
    }

    /// The renderer ran out of media while `.playing`. With automatic waiting the player waits with
    /// `.toMinimizeStalls`, keeping its rate, until a report says the buffer is likely to keep up; without it,
    /// the rate becomes zero and the player pauses, as AVPlayer does. Ignored unless `.playing`.
    /// (Posting the stalled notification is the driver's job.)
    public mutating func stalled() -> [Action] {
        guard status == .playing else { return [] }
        return transition(reconsiderPlaying: true) {
            $0.likelyToKeepUp = false
            $0.bufferEmpty = true
            if !$0.automaticallyWaitsToMinimizeStalling { $0.rate = 0 }
        }
    }

    /// The current item played to its end. Ignored when the rate is zero or no ready item is current.
    /// - `.pause`: the rate becomes zero and the player pauses.
    /// - `.none`: nothing changes (the driver keeps the playhead at the end; a seek back resumes playing).
    /// - `.advance`: returns `.advanceToNextItem` and nothing else; the status follows the driver's
    ///   `itemChanged(hasItem:isReady:likelyToKeepUp:)` report.
    /// (Posting the did-play-to-end notification is the driver's job.)
    public mutating func reachedEnd(actionAtItemEnd: ActionAtItemEnd) -> [Action] {
        guard rate > 0, item == .ready else { return [] }
        switch actionAtItemEnd {
        case .pause: return transition { $0.rate = 0 }
        case .none: return []
        case .advance: return [.advanceToNextItem]
        }
    }

    /// A seek started: the buffer is flushed, so it is known to be empty and its likelihood to keep up is
    /// unknown until the next report. `.playing` continues; a waiting player now waits with
    /// `.evaluatingBufferingRate` (automatic waiting) until a report arrives.
    public mutating func seekStarted() -> [Action] {
        transition {
            $0.likelyToKeepUp = nil
            $0.bufferEmpty = true
        }
    }

    /// No seek is in flight any more (the latest landed, failed or was cancelled); report the new buffer state
    /// first. With automatic waiting, a `.playing` player re-decides as if starting, so it waits if the
    /// region it landed in is not buffered enough. Without automatic waiting playback just goes on.
    public mutating func seekFinished() -> [Action] {
        transition(reconsiderPlaying: automaticallyWaitsToMinimizeStalling) { _ in }
    }

    // MARK: - Rules

    /// Applies `change`, re-decides the status, and returns the actions describing the difference.
    private mutating func transition(
        immediate: Bool = false, reconsiderPlaying: Bool = false,
        _ change: (inout TimeControlStateMachine) -> Void
    ) -> [Action] {
        let oldRate = rate
        let oldStatus = status
        change(&self)
        status = decideStatus(immediate: immediate, reconsiderPlaying: reconsiderPlaying)

        var actions: [Action] = []
        if rate != oldRate { actions.append(.emitRate(rate, previous: oldRate)) }
        switch (oldStatus == .playing, status == .playing) {
        case (false, true): actions.append(.startClock(rate: rate))
        case (true, false): actions.append(.stopClock)
        case (true, true) where rate != oldRate: actions.append(.setClockRate(rate))
        default: break
        }
        if status != oldStatus { actions.append(.emitTimeControlStatus(timeControlStatus, reasonForWaitingToPlay)) }
        return actions
    }

    private func decideStatus(immediate: Bool, reconsiderPlaying: Bool) -> Status {
        guard rate > 0 else { return .paused }
        switch item {
        case .none: return .waiting(.noItemToPlay)
        case .loading: return .waiting(.evaluatingBufferingRate)
        case .failed: return .paused  // unreachable: a failed item forces the rate to zero
        case .ready: break
        }
        if status == .playing && !reconsiderPlaying { return .playing }
        if !automaticallyWaitsToMinimizeStalling {
            return bufferEmpty ? .waiting(.evaluatingBufferingRate) : .playing
        }
        if immediate {
            return bufferEmpty ? .waiting(.toMinimizeStalls) : .playing
        }
        switch likelyToKeepUp {
        case true?: return .playing
        case false?: return .waiting(.toMinimizeStalls)
        case nil: return .waiting(.evaluatingBufferingRate)
        }
    }
}

import Locking
import Playback

/// One frame the Picture in Picture window showed, recorded when ``PictureInPictureWindow/recordsFrames`` is on.
public struct ShownFrame: Sendable, Hashable {
    /// The frame's MD5, as `ffmpeg -f framemd5` computes it.
    public var md5: String
    /// The frame's presentation time in its media.
    public var itemTime: MediaTime
    /// The system clock's time when the window showed it, in seconds (under a ``ManualClock``: the clock time
    /// the advance that showed it reached).
    public var clockTime: Double
    /// The picture's size.
    public var size: RenderSize
}

/// The floating window of one Picture in Picture session, owned by ``SimulatedPictureInPictureSystem``.
///
/// It shows the frames of its controller's content source (following swaps), counts them, knows its size, and
/// offers the controls a user has: play/pause, skip, close, restore and resize. A hidden window (suspended
/// behind another app's Picture in Picture, or under a locked screen) shows nothing and takes no input. All
/// members may be used from any thread.
public final class PictureInPictureWindow: Sendable {
    /// The session this window belongs to.
    public let session: SessionID
    /// The session's playback-state object (one per window, across swaps).
    public let playbackState: PictureInPicturePlaybackState
    let connection: PictureInPictureHostConnection
    private let clockTime: @Sendable () -> Double

    private struct State {
        var source: ContentSource
        var generation: UInt64
        var token: UInt64?
        var isOpen = true
        var hiddenBySuspension = false
        var hiddenByLock = false
        var framesShown = 0
        var renderSize: RenderSize?
        var userResized = false
        var recordsFrames: Bool
        var shownFrames: [ShownFrame] = []
        var observer: Task<Void, Never>?
        /// The system clock's time of the last new picture, or of the last check that found the content not
        /// playing or the window hidden (the system's picture watchdog counts from the later).
        var quietSince: Double
        /// Whether the system has stopped the session on its own (it stops it once).
        var stoppedBySystem = false
        var isVisible: Bool { isOpen && !hiddenBySuspension && !hiddenByLock }
    }

    private let state: Locked<State>

    init(
        session: SessionID, connection: PictureInPictureHostConnection, recordsFrames: Bool, hiddenByLock: Bool,
        clockTime: @escaping @Sendable () -> Double
    ) {
        self.session = session
        self.connection = connection
        self.clockTime = clockTime
        let source = connection.contentSource
        let generation = connection.contentSourceGeneration
        playbackState = PictureInPicturePlaybackState(source: source, generation: generation)
        var initial = State(
            source: source, generation: generation, recordsFrames: recordsFrames, quietSince: clockTime())
        initial.hiddenByLock = hiddenByLock
        state = Locked(initial)
        attach(source, generation: generation)
    }

    // MARK: What the window shows

    /// Whether the window is open (until the session's window closes).
    public var isOpen: Bool { state.withLock { $0.isOpen } }
    /// Whether the window is on screen: open, and hidden neither by a suspension nor by a locked screen.
    public var isVisible: Bool { state.withLock { $0.isVisible } }
    /// Whether another app's Picture in Picture hides this one.
    public var isSuspended: Bool { state.withLock { $0.hiddenBySuspension } }
    /// Frames shown so far (frames that arrive while hidden are not shown).
    public var framesShown: Int { state.withLock { $0.framesShown } }
    /// The window's size: the content's picture size until the user resizes the window.
    public var renderSize: RenderSize? { state.withLock { $0.renderSize } }
    /// The content source shown.
    public var contentSource: ContentSource { state.withLock { $0.source } }

    /// Whether every frame shown is recorded in ``shownFrames`` (with its MD5; costs one MD5 per frame).
    public var recordsFrames: Bool {
        get { state.withLock { $0.recordsFrames } }
        set { state.withLock { $0.recordsFrames = newValue } }
    }

    /// The frames shown while ``recordsFrames`` was on, in order.
    public var shownFrames: [ShownFrame] { state.withLock { $0.shownFrames } }

    /// Shows `source` from now on: its current frame at once, then every frame its layer shows.
    func attach(_ source: ContentSource, generation: UInt64) {
        let old = state.withLock { s -> (ContentSource, UInt64?) in
            let old = (s.source, s.token)
            s.source = source
            s.generation = generation
            s.token = nil
            return old
        }
        if let token = old.1 { old.0.removeFrameListener(token) }
        guard isOpen else { return }
        playbackState.attach(source, generation: generation)
        let token = source.addFrameListener { [weak self] frame in self?.show(frame, generation: generation) }
        state.withLock { s in
            if s.generation == generation { s.token = token } else { source.removeFrameListener(token) }
        }
        if let frame = source.currentFrame { show(frame, generation: generation) }
    }

    /// Called where the content's layer reports the frame (a player's callback executor): bookkeeping only.
    private func show(_ frame: VideoFrame, generation: UInt64) {
        let records = state.withLock { s -> Bool? in
            guard s.isVisible, s.generation == generation else { return nil }
            return s.recordsFrames
        }
        guard let records else { return }
        let size = RenderSize(width: frame.width, height: frame.height)
        let time = clockTime()
        let shown = records ? ShownFrame(md5: frame.md5(), itemTime: frame.time, clockTime: time, size: size) : nil
        state.withLock { s in
            guard s.isVisible, s.generation == generation else { return }
            s.framesShown += 1
            s.quietSince = max(s.quietSince, time)
            if !s.userResized { s.renderSize = size }
            if let shown { s.shownFrames.append(shown) }
        }
    }

    /// Seconds of the system clock since the window last showed a new picture while its content played and it was
    /// visible (0 while the content does not play or the window is hidden: the count starts again).
    func secondsWithoutPicture(now: Double, playing: Bool) -> Double {
        state.withLock { s in
            guard playing, s.isVisible else {
                s.quietSince = now
                return 0
            }
            return max(now - s.quietSince, 0)
        }
    }

    /// Marks the session stopped by the system; false when it already was.
    func markStoppedBySystem() -> Bool {
        state.withLock { s in
            defer { s.stoppedBySystem = true }
            return !s.stoppedBySystem && s.isOpen
        }
    }

    func setHidden(bySuspension hidden: Bool) { state.withLock { $0.hiddenBySuspension = hidden } }
    func setHidden(byLock hidden: Bool) { state.withLock { $0.hiddenByLock = hidden } }

    /// Replaces the task that watches the content's player for changes (host clocks only).
    func setObserver(_ task: Task<Void, Never>?) {
        let old = state.withLock { s -> Task<Void, Never>? in
            defer { s.observer = task }
            return s.observer
        }
        old?.cancel()
    }

    /// The window is gone: it stops showing frames.
    func dismiss() {
        let (source, token, observer) = state.withLock { s -> (ContentSource, UInt64?, Task<Void, Never>?) in
            s.isOpen = false
            defer {
                s.token = nil
                s.observer = nil
            }
            return (s.source, s.token, s.observer)
        }
        if let token { source.removeFrameListener(token) }
        observer?.cancel()
    }

    // MARK: The user's controls

    /// The play button: the content plays (a player's `timeControlStatus` follows).
    public func play() { if isVisible { connection.setPlaying(true) } }
    /// The pause button.
    public func pause() { if isVisible { connection.setPlaying(false) } }
    /// The play/pause button: plays when the playback state shows paused, pauses otherwise.
    public func togglePlayPause() { if isVisible { connection.setPlaying(playbackState.isPaused) } }

    /// The skip buttons (a negative interval skips back): a seek with origin `.pictureInPictureSkip`, completed
    /// exactly once. Refused while hidden, closing, or when the controller requires linear playback.
    public func skip(by interval: Duration) async -> PictureInPictureSkipOutcome {
        guard isVisible else { return .refused }
        return await connection.skip(by: interval)
    }

    /// The close button: Picture in Picture stops (`willStop`, `didStop`); no restore.
    public func close() { if isVisible { connection.stopRequested(by: .user) } }

    /// The "return to app" button: the app is asked to restore its interface, then the session stops.
    public func restore() { if isVisible { connection.restoreTapped() } }

    /// The user resized the window: it keeps `size` from now on, and a sample-buffer delegate is told.
    public func resize(to size: RenderSize) {
        guard isVisible else { return }
        state.withLock { s in
            s.renderSize = size
            s.userResized = true
        }
        connection.renderSizeDidChange(size)
    }
}

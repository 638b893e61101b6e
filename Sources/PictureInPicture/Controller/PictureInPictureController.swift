import Playback

/// Starts, stops and reports Picture in Picture for one content source, like `AVPictureInPictureController`.
///
/// The controller drives a ``PictureInPictureStateMachine``; the system side (the floating window and its
/// playback-state object) is its ``PictureInPictureHost``, normally a ``SimulatedPictureInPictureSystem``.
/// Everything the controller reports reaches the app twice, in one order: through the ``delegate`` and on the
/// stream of ``events(bufferLimit:)``. Both are delivered on the controller's own serial callback executor,
/// never under a lock (see ``PictureInPictureControllerDelegate``).
///
/// Releasing the controller (or calling ``invalidate()``) ends a running session cleanly: the window closes
/// and the stream reports `willStop`, `didStop`, then ends. After a release by deinit the delegate is no longer
/// called (it would receive a controller that no longer exists); after ``invalidate()`` it is.
///
/// All members may be used from any thread.
public final class PictureInPictureController: Sendable {
    let core: ControllerCore

    /// A controller for `contentSource`, hosted by `system`.
    public init(
        contentSource: ContentSource,
        system: any PictureInPictureHost = SimulatedPictureInPictureSystem.shared
    ) {
        core = ControllerCore(source: contentSource, host: system)
        core.state.withLock { $0.controller.value = self }
        system.register(core.connection)
        if contentSource.sampleBufferDisplayLayer != nil { core.querySampleBufferState(of: contentSource) }
    }

    /// A controller for a player layer (`ContentSource(playerLayer:)`), hosted by `system`.
    public convenience init(
        playerLayer: PlayerLayer,
        system: any PictureInPictureHost = SimulatedPictureInPictureSystem.shared
    ) {
        self.init(contentSource: ContentSource(playerLayer: playerLayer), system: system)
    }

    deinit { core.release() }

    /// The system side this controller talks to.
    public var system: any PictureInPictureHost { core.host }

    /// Told about the session; held weakly. Calls arrive on the controller's callback executor.
    public var delegate: (any PictureInPictureControllerDelegate)? {
        get { core.state.withLock { $0.delegate.value } }
        set { core.state.withLock { $0.delegate.value = newValue } }
    }

    /// Every event from now on (each call is a new, independent subscriber), in the delegate's order. The
    /// stream ends after the controller is released and its last session has stopped.
    public func events(bufferLimit: Int? = nil) -> AsyncStream<PictureInPictureControllerEvent> {
        core.events.subscribe(bufferLimit: bufferLimit)
    }

    // MARK: Content

    /// What Picture in Picture shows. Assigning a new source keeps a running session, its window and its
    /// playback-state object, and the window shows the new source's frames; if the new source is not ready for
    /// display, the session stops (`willStop`, `didStop`). The stream reports
    /// ``PictureInPictureControllerEvent/contentSource(item:mode:)`` with mode ``ContentSwapMode/source``.
    public var contentSource: ContentSource {
        get { core.state.withLock { $0.source } }
        set { core.replaceContentSource(newValue) }
    }

    /// The player layer of a player-layer source.
    public var playerLayer: PlayerLayer? { contentSource.playerLayer }

    /// Prepares a player for `item` (``ContentSource/prepared(for:clock:audio:timeout:configure:)``, which calls
    /// `configure` with the new player before it loads), assigns its source, starts it at the previous player's
    /// rate if that one was playing, and pauses the previous player (unless `pausingPrevious` is false). The swap
    /// is seamless: the window goes straight from the old content's frames to the new one's first frame.
    @discardableResult
    public func swapContentSource(
        to item: PlayerItem, clock: ClockMode, audio: Bool = true, pausingPrevious: Bool = true,
        configure: (Player) -> Void = { _ in }
    ) async throws(ContentSourcePreparationError) -> PreparedContentSource {
        let previous = contentSource.player
        let prepared = try await ContentSource.prepared(for: item, clock: clock, audio: audio, configure: configure)
        let rate = previous?.rate ?? 0
        contentSource = prepared.contentSource
        if rate != 0 { prepared.player.rate = rate }
        if pausingPrevious { previous?.pause() }
        return prepared
    }

    /// Tells the system that the content's playback changed in a way it cannot see: for a sample-buffer source
    /// the playback delegate is asked again for its time range and paused state.
    public func invalidatePlaybackState() { core.invalidatePlaybackState() }

    // MARK: State

    /// Whether the host offers Picture in Picture at all.
    public var isPictureInPictureSupported: Bool { core.samplePreconditions().isSupportedByHost }

    /// Whether a start would succeed now: every precondition holds. Changes are reported as
    /// ``PictureInPictureControllerEvent/possible(_:)``.
    public var isPictureInPicturePossible: Bool { core.state.withLock { $0.machine.isPossible } }

    /// `true` from `didStart` to `didStop`.
    public var isPictureInPictureActive: Bool { core.state.withLock { $0.machine.isActive } }

    /// `true` while the window is hidden behind another app's Picture in Picture.
    public var isPictureInPictureSuspended: Bool { core.state.withLock { $0.machine.isSuspended } }

    /// Where the session is: idle, starting, active, restoring or stopping.
    public var phase: PictureInPictureStateMachine.Phase { core.state.withLock { $0.machine.phase } }

    /// Why the last restore did not restore the app's interface (declined, timed out, interrupted); nil if every
    /// restore so far completed with `true`.
    public var lastRestoreFailure: RestoreFailure? { core.state.withLock { $0.lastRestoreFailure } }

    /// Whether Picture in Picture starts by itself when the app moves to the background while the content plays.
    public var canStartPictureInPictureAutomaticallyFromInline: Bool {
        get { core.state.withLock { $0.canStartAutomatically } }
        set { core.state.withLock { $0.canStartAutomatically = newValue } }
    }

    /// When `true`, the window offers no skipping: skips from it are refused. May change at any time.
    public var requiresLinearPlayback: Bool {
        get { core.state.withLock { $0.machine.requiresLinearPlayback } }
        set { core.state.withLock { $0.machine.requiresLinearPlayback = newValue } }
    }

    // MARK: Requests

    /// Asks the system to start Picture in Picture. The outcome arrives as `willStart` then `didStart`, or as
    /// `failedToStart(error)` naming the first unmet precondition (without `willStart`: no session was made).
    ///
    /// - Throws: a misuse, changing nothing: ``PictureInPictureError/alreadyActive``,
    ///   ``PictureInPictureError/startInProgress``, ``PictureInPictureError/suspended`` or
    ///   ``PictureInPictureError/controllerReleased``.
    public func startPictureInPicture() throws(PictureInPictureError) { try core.start() }

    /// Asks the system to stop Picture in Picture (`willStop`, `didStop`). Does nothing when not active; a stop
    /// during a start takes effect as soon as the window has opened.
    public func stopPictureInPicture() { core.feed { $0.machine.stopRequested(by: .app) } }

    /// Ends the controller now, as releasing it would: a running session stops (`willStop`, `didStop`, with the
    /// delegate still called), no new one can start, and the event stream ends.
    public func invalidate() { core.release() }

    /// Returns once every delegate call and event produced so far has been delivered (under a manual clock,
    /// `advance(by:)` already waits for this).
    public func callbacksDelivered() async { await core.executor.drain() }

    /// Calls `observer` with every event as it is delivered, on the controller's callback executor, in order (the
    /// same events `events()` streams, with no consumer task to wait for). Keep it quick.
    public func observeEvents(_ observer: @escaping @Sendable (PictureInPictureControllerEvent) -> Void) {
        core.events.addSynchronousObserver(observer)
    }

    /// Calls `observer` with every event at the moment the controller produces it, on the thread that caused it
    /// (a clock advance, the host, an API call), before the delegate hears of it: for one trace ordered with a
    /// player's own synchronous events (`Player.observeEvents`). Under a manual clock that order is the same on
    /// every run. Keep it quick; it must not call the controller.
    public func observeEventsAsProduced(_ observer: @escaping @Sendable (PictureInPictureControllerEvent) -> Void) {
        core.produced.addSynchronousObserver(observer)
    }
}

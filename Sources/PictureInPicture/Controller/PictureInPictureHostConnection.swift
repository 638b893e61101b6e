import Playback

/// A host's handle on one ``PictureInPictureController``: how the system side reports what happened to the
/// window, the user, and the app.
///
/// Hosts receive connections through ``PictureInPictureHost/register(_:)`` and the window requests; they cannot
/// make one. Every method may be called from any thread, but not while the host holds a lock that its own
/// ``PictureInPictureHost`` methods take: the controller may perform further window actions from inside the
/// call. Calls that carry a ``SessionID`` for a session that has moved on are ignored.
public struct PictureInPictureHostConnection: Sendable, Hashable {
    let core: ControllerCore

    /// Identifies the controller (stable for its lifetime), for keying host-side records.
    public var id: ObjectIdentifier { ObjectIdentifier(core) }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.core === rhs.core }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    // MARK: What the host may read

    /// The controller's current content source.
    public var contentSource: ContentSource { core.state.withLock { $0.source } }
    /// Increases every time the app assigns a content source.
    public var contentSourceGeneration: UInt64 { core.state.withLock { $0.sourceGeneration } }
    /// The session in progress, if any.
    public var currentSession: SessionID? { core.state.withLock { $0.machine.currentSession } }
    /// `true` from `didStart` to `didStop`.
    public var isActive: Bool { core.state.withLock { $0.machine.isActive } }
    /// Whether the content is playing: the player's `timeControlStatus` is `.playing`, or, for a sample-buffer
    /// source, the delegate last said it was not paused. Reads the player: not for use in a frame callback.
    public var isContentPlaying: Bool {
        let source = contentSource
        if let player = source.player { return player.timeControlStatus == .playing }
        return source.sampleBufferState.map { !$0.paused } ?? false
    }

    // MARK: Window answers

    /// The window for `session` is open.
    public func didOpenWindow(_ session: SessionID) { core.feed { $0.machine.hostDidOpenWindow(session) } }

    /// The window for `session` could not be opened.
    public func failedToOpenWindow(_ session: SessionID, reason: String) {
        core.feed { $0.machine.hostFailedToOpen(session, reason: reason) }
    }

    /// The window for `session` has closed (asked to, or on the host's own initiative).
    public func didCloseWindow(_ session: SessionID) { core.feed { $0.machine.hostDidCloseWindow(session) } }

    // MARK: The user, in the window

    /// The user tapped "return to app".
    public func restoreTapped() { core.feed { $0.machine.restoreTapped() } }

    /// The user (``StopRequester/user``) or the system (``StopRequester/system``) ends Picture in Picture.
    public func stopRequested(by requester: StopRequester) { core.feed { $0.machine.stopRequested(by: requester) } }

    /// The user skipped by `interval`. Returns once the skip's seek completed (exactly once), or at once with
    /// ``PictureInPictureSkipOutcome/refused`` when no skip is allowed now.
    public func skip(by interval: Duration) async -> PictureInPictureSkipOutcome {
        await withCheckedContinuation { continuation in
            let (accepted, mustDrain) = core.state.withLock { s -> (Bool, Bool) in
                let actions = s.machine.userSkipped(by: interval)
                guard case .seek(let request)? = actions.first else { return (false, false) }
                s.skipWaiters[request.id] = continuation
                return (true, s.enqueue(actions))
            }
            if !accepted { continuation.resume(returning: .refused) }
            if mustDrain { core.drain() }
        }
    }

    /// The user pressed play or pause: the player plays or pauses (its `timeControlStatus` follows), or the
    /// sample-buffer delegate is told; then the playback state is read again.
    public func setPlaying(_ playing: Bool) {
        let source = contentSource
        if let player = source.player {
            if playing { player.play() } else { player.pause() }
            core.host.playbackStateDidInvalidate(for: self)
        } else if source.sampleBufferDisplayLayer != nil {
            core.querySampleBufferState(of: source) { delegate, controller in
                delegate.pictureInPictureController(controller, setPlaying: playing)
            }
        }
    }

    /// The window was resized; a sample-buffer delegate is told (on the callback executor).
    public func renderSizeDidChange(_ size: RenderSize) {
        let source = contentSource
        guard let delegate = source.sampleBufferPlaybackDelegate else { return }
        core.executor.enqueue { [core] in
            guard let controller = core.state.withLock({ $0.controller.value }) else { return }
            delegate.pictureInPictureController(controller, didTransitionToRenderSize: size)
        }
    }

    // MARK: The system and the app's lifecycle

    /// Another app's Picture in Picture hides ours.
    public func suspend() { core.feed { $0.machine.suspend() } }
    /// The other app's Picture in Picture went away.
    public func resume() { core.feed { $0.machine.resume() } }

    /// The app moved to the background; an automatic start happens if the controller allows it, the content is
    /// playing and Picture in Picture is possible.
    public func enteredBackground() {
        let playing = isContentPlaying
        let preconditions = core.samplePreconditions()
        core.feed { s in
            s.machine.enteredBackground(
                isPlaying: playing, canStartAutomatically: s.canStartAutomatically,
                preconditions: preconditions)
        }
    }

    /// The app returned to the foreground (an automatic session restores).
    public func enteredForeground() { core.feed { $0.machine.enteredForeground() } }
    /// The app is terminating: the session ends at once.
    public func appTerminated() { core.feed { $0.machine.appTerminated() } }
    /// Something the preconditions depend on may have changed: sample them again.
    public func preconditionsMayHaveChanged() { core.refreshPreconditions() }

    // MARK: Reporting

    /// Puts `event` on the controller's event stream, in order with the session's events (for the
    /// ``PictureInPictureControllerEvent/playbackState(stateID:contentDuration:elapsed:timeControlStatus:)`` and
    /// ``PictureInPictureControllerEvent/contentSource(item:mode:)`` events the host observes).
    public func publish(_ event: PictureInPictureControllerEvent) { core.submit(.publish(event)) }

    /// Returns once every callback and event handed to the controller's executor so far has been delivered.
    public func callbacksDelivered() async { await core.executor.drain() }
}

/// The system side of Picture in Picture: what owns the floating window, its playback-state object, the app's
/// environment, and the clock the system's timers run on.
///
/// A ``PictureInPictureController`` drives its ``PictureInPictureStateMachine`` and asks its host to perform the
/// window actions. The host answers through the ``PictureInPictureHostConnection`` it was given, from any thread,
/// at once or later, but never while holding a lock that the connection's methods might need (the controller may
/// call the host back from inside those methods). ``SimulatedPictureInPictureSystem`` is the headless
/// implementation tests and the CLI drive.
public protocol PictureInPictureHost: AnyObject, Sendable {
    /// Whose delegate ordering the host follows.
    var profile: HostProfile { get }

    /// How long the host waits for the app's restore completion.
    var restoreTimeout: Duration { get }

    /// The facts the host knows (support, audio session, background-audio capability) combined with the
    /// content's readiness, sampled now.
    func preconditions(isContentSourceReadyForDisplay: Bool) -> PictureInPicturePreconditions

    /// A controller was created for this host. Its lifecycle events (background, termination, suspension) go
    /// through `connection` from now on.
    func register(_ connection: PictureInPictureHostConnection)

    /// A released controller has finished its last session; the host must drop `connection`.
    func unregister(_ connection: PictureInPictureHostConnection)

    /// Open the window for `session`, then call ``PictureInPictureHostConnection/didOpenWindow(_:)`` or
    /// ``PictureInPictureHostConnection/failedToOpenWindow(_:reason:)``.
    func openWindow(_ session: SessionID, for connection: PictureInPictureHostConnection)

    /// Close `session`'s window, then call ``PictureInPictureHostConnection/didCloseWindow(_:)`` (not needed
    /// for ``StopReason/appTerminated``: the window is simply gone).
    func closeWindow(_ session: SessionID, reason: StopReason, for connection: PictureInPictureHostConnection)

    /// Hide `session`'s window while another app's Picture in Picture is in front.
    func hideWindow(_ session: SessionID, for connection: PictureInPictureHostConnection)

    /// Show `session`'s window again.
    func showWindow(_ session: SessionID, for connection: PictureInPictureHostConnection)

    /// The controller's content source was replaced: show the new one in the open window, if any.
    func contentSourceDidChange(for connection: PictureInPictureHostConnection)

    /// The content's playback state changed in a way the host cannot see by itself (a skip landed, the app
    /// called `invalidatePlaybackState()`): read it again.
    func playbackStateDidInvalidate(for connection: PictureInPictureHostConnection)

    /// Runs `work` after `delay` of the host's clock (the controller's restore timeout).
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void)
}

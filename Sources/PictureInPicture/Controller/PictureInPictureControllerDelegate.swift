/// What a ``PictureInPictureController`` tells the app, like `AVPictureInPictureControllerDelegate`.
///
/// Every method is optional: the protocol extension provides empty defaults (and, for the restore request, a
/// completion with `true`). Every call is also mirrored on the controller's event stream.
///
/// **Where callbacks run.** All of them run on the controller's own serial callback executor: one at a time, in
/// the order the session produced them, never on the caller's thread and never under a lock of the library. A
/// callback may call back into the controller or its player. The controller holds its delegate weakly.
///
/// Sessions follow a fixed grammar: `willStart`, then either `failedToStart` or `didStart` … `willStop`,
/// `didStop`. A start refused by a precondition calls only `failedToStart`, without `willStart`.
public protocol PictureInPictureControllerDelegate: AnyObject, Sendable {
    /// Picture in Picture is about to start.
    func pictureInPictureControllerWillStartPictureInPicture(_ controller: PictureInPictureController)

    /// Picture in Picture started: the window is open.
    func pictureInPictureControllerDidStartPictureInPicture(_ controller: PictureInPictureController)

    /// Picture in Picture could not start; `error` names the unmet precondition or the system's reason.
    func pictureInPictureController(
        _ controller: PictureInPictureController,
        failedToStartPictureInPictureWithError error: PictureInPictureError)

    /// The user asked to return to the app. Restore the player's user interface, then call
    /// `completionHandler(true)`, or `completionHandler(false)` if it could not be restored.
    ///
    /// The session stops either way (after the completion, so the window can animate back). If the handler is
    /// not called within the system's restore timeout the session stops as if it had been called with `false`;
    /// a later call is ignored, and so is a second call. The handler may be called from any thread.
    func pictureInPictureController(
        _ controller: PictureInPictureController,
        restoreUserInterfaceForPictureInPictureStopWithCompletionHandler completionHandler:
            @escaping @Sendable (Bool) -> Void
    )

    /// Picture in Picture is about to stop.
    func pictureInPictureControllerWillStopPictureInPicture(_ controller: PictureInPictureController)

    /// Picture in Picture stopped: the window is closed.
    func pictureInPictureControllerDidStopPictureInPicture(_ controller: PictureInPictureController)
}

extension PictureInPictureControllerDelegate {
    /// Does nothing.
    public func pictureInPictureControllerWillStartPictureInPicture(_ controller: PictureInPictureController) {}

    /// Does nothing.
    public func pictureInPictureControllerDidStartPictureInPicture(_ controller: PictureInPictureController) {}

    /// Does nothing.
    public func pictureInPictureController(
        _ controller: PictureInPictureController,
        failedToStartPictureInPictureWithError error: PictureInPictureError
    ) {}

    /// Completes with `true` at once: an app that does not implement the restore has nothing to restore.
    public func pictureInPictureController(
        _ controller: PictureInPictureController,
        restoreUserInterfaceForPictureInPictureStopWithCompletionHandler completionHandler:
            @escaping @Sendable (Bool) -> Void
    ) {
        completionHandler(true)
    }

    /// Does nothing.
    public func pictureInPictureControllerWillStopPictureInPicture(_ controller: PictureInPictureController) {}

    /// Does nothing.
    public func pictureInPictureControllerDidStopPictureInPicture(_ controller: PictureInPictureController) {}
}

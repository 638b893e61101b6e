/// The app's lifecycle, other apps, and the system's own decisions, as the simulated system sees them. Each
/// method updates ``SimulatedPictureInPictureSystem/app`` and tells every registered controller.
extension SimulatedPictureInPictureSystem {
    /// The app moves to the background (the user went home or switched apps). A controller with
    /// ``PictureInPictureController/canStartPictureInPictureAutomaticallyFromInline`` whose content is playing
    /// starts Picture in Picture on its own (`willStart`, `didStart`), if it is possible.
    public func enterBackground() {
        guard app.lifecycle == .foreground else { return }
        app.lifecycle = .background
        for connection in connections { connection.enteredBackground() }
    }

    /// The app returns to the foreground. A session that started automatically restores
    /// (`restoreUserInterface`, then the stop); one the app started explicitly keeps running.
    public func enterForeground() {
        guard app.lifecycle == .background else { return }
        app.lifecycle = .foreground
        for connection in connections { connection.enteredForeground() }
    }

    /// The user locks the screen. Windows are hidden. Content keeps playing only when the app has an active
    /// `.playback` audio session and the background-audio capability
    /// (``SimulatedAppEnvironment/keepsPlayingWhenLocked``); otherwise every controller's content is paused.
    /// A foreground app goes to the background, without starting Picture in Picture automatically.
    public func lockScreen() {
        guard !app.isScreenLocked, app.lifecycle != .terminated else { return }
        app.isScreenLocked = true
        let wasForeground = app.lifecycle == .foreground
        if wasForeground { app.lifecycle = .background }
        setForegroundBeforeLock(wasForeground)
        for window in windows { window.setHidden(byLock: true) }
        if !app.keepsPlayingWhenLocked {
            for connection in connections { connection.setPlaying(false) }
        }
    }

    /// The user unlocks the screen: windows show again, and an app that was in the foreground returns to it.
    /// Paused content stays paused.
    public func unlockScreen() {
        guard app.isScreenLocked else { return }
        app.isScreenLocked = false
        for window in windows { window.setHidden(byLock: false) }
        if foregroundBeforeLock, app.lifecycle == .background { app.lifecycle = .foreground }
    }

    /// The app terminates. Every window closes at once: no restore, no close animation (`willStop`, `didStop`,
    /// or `failedToStart(.startCancelled)` for a start in progress). Later starts fail.
    public func terminateApp() {
        guard app.lifecycle != .terminated else { return }
        app.lifecycle = .terminated
        for connection in connections { connection.appTerminated() }
    }

    /// Another app starts its own Picture in Picture: ours is suspended (hidden, still alive).
    public func otherAppStartedPictureInPicture() {
        setOtherAppActive(true)
        for connection in connections { connection.suspend() }
    }

    /// The other app's Picture in Picture ends: ours shows again.
    public func otherAppStoppedPictureInPicture() {
        setOtherAppActive(false)
        for connection in connections { connection.resume() }
    }

    /// Whether another app's Picture in Picture is in front.
    public var isOtherAppPictureInPictureActive: Bool { otherAppActive }

    /// The system ends every running Picture in Picture session on its own (`stoppedBySystem(.requested)`,
    /// `willStop`, `didStop`), as iOS may at any moment.
    public func systemStop() {
        for connection in connections where connection.currentSession != nil {
            stop(connection, window: window(of: connection), reason: .requested)
        }
    }

    // MARK: Bookkeeping

    var foregroundBeforeLock: Bool { state.withLock { $0.foregroundBeforeLock } }
    func setForegroundBeforeLock(_ value: Bool) { state.withLock { $0.foregroundBeforeLock = value } }
    var otherAppActive: Bool { state.withLock { $0.isOtherAppPictureInPictureActive } }
    func setOtherAppActive(_ value: Bool) { state.withLock { $0.isOtherAppPictureInPictureActive = value } }
}

import Dispatch
import Locking
import Playback

/// A headless Picture in Picture system: the host that owns the floating windows, their playback-state
/// objects, the simulated app's environment, and the timers of the system side. Tests and the CLI drive it.
///
/// - **Windows.** ``openWindow(_:for:)`` opens a ``PictureInPictureWindow`` after ``startLatency`` of the
///   system's clock (at once when zero), unless ``openFailure`` is set. Windows close at once when asked.
/// - **Clock.** With `.manual(clock)` the system follows the clock: latencies and the restore timeout are
///   measured in clock time and fire at the first `advance(by:)` that reaches them, and every advance ends by
///   sampling each controller's preconditions, refreshing each window's playback state, and waiting until every
///   controller's callbacks have been delivered, so a test sees a settled state after each advance. With other
///   clocks timers use real time and windows watch their player's events.
/// - **User and app.** Window controls are on ``PictureInPictureWindow``; the app's lifecycle, other apps and the
///   system's own decisions are methods of this class (see `SimulatedPictureInPictureSystem+Lifecycle.swift`).
public final class SimulatedPictureInPictureSystem: PictureInPictureHost, ManualClockParticipant, Sendable {
    /// A system on the host clock, used by controllers created without one.
    public static let shared = SimulatedPictureInPictureSystem()

    /// Whose delegate ordering the system follows.
    public let profile: HostProfile
    /// How long the system waits for an app's restore completion.
    public let restoreTimeout: Duration
    /// The clock the system's timers and frame times follow.
    public let clock: ClockMode
    /// The simulated app: audio session, capability, lifecycle.
    public let app: SimulatedAppEnvironment
    /// Runs after every player on a manual clock.
    public var clockOrder: UInt64 { .max }

    struct Timer {
        var start: MediaTime
        var delay: MediaTime
        var serial: UInt64
        var work: @Sendable () -> Void
    }

    struct State {
        var isSupported: Bool
        var startLatency: Duration
        var openFailure: String?
        var recordsShownFrames = false
        var connections: [ObjectIdentifier: (serial: UInt64, connection: PictureInPictureHostConnection)] = [:]
        var windows: [ObjectIdentifier: PictureInPictureWindow] = [:]
        var timers: [Timer] = []
        var serial: UInt64 = 0
        var isOtherAppPictureInPictureActive = false
        var foregroundBeforeLock = false
        var pictureTimeout: Duration? = .seconds(10)
    }

    let state: Locked<State>
    private let origin = ContinuousClock.now

    /// Creates a system.
    /// - Parameters:
    ///   - profile: iOS or macOS restore ordering.
    ///   - clock: the clock of the system side; pass the players' manual clock in tests.
    ///   - isPictureInPictureSupported: whether the device offers Picture in Picture.
    ///   - startLatency: how long opening a window takes.
    ///   - restoreTimeout: how long the app may take to complete a restore.
    ///   - app: the simulated app environment (by default an app set up for Picture in Picture).
    public init(
        profile: HostProfile = .iOS, clock: ClockMode = .host, isPictureInPictureSupported: Bool = true,
        startLatency: Duration = .zero, restoreTimeout: Duration = .seconds(5),
        app: SimulatedAppEnvironment = SimulatedAppEnvironment()
    ) {
        self.profile = profile
        self.clock = clock
        self.restoreTimeout = restoreTimeout
        self.app = app
        state = Locked(State(isSupported: isPictureInPictureSupported, startLatency: startLatency))
        if case .manual(let manual) = clock { manual.register(self) }
        app.setOnChange { [weak self] in self?.preconditionsChanged() }
    }

    // MARK: Settings

    /// Whether the device offers Picture in Picture; changing it updates every controller's `possible`.
    public var isPictureInPictureSupported: Bool {
        get { state.withLock { $0.isSupported } }
        set {
            state.withLock { $0.isSupported = newValue }
            preconditionsChanged()
        }
    }

    /// How long opening a window takes, in the system's clock (zero: the window opens at once).
    public var startLatency: Duration {
        get { state.withLock { $0.startLatency } }
        set { state.withLock { $0.startLatency = newValue } }
    }

    /// When set, windows fail to open with this reason (`failedToStart(.systemFailed(reason))`).
    public var openFailure: String? {
        get { state.withLock { $0.openFailure } }
        set { state.withLock { $0.openFailure = newValue } }
    }

    /// How long a playing session may go without a new picture before the system stops it
    /// (``PictureInPictureControllerEvent/stoppedBySystem(_:)`` with ``SystemStopReason/noNewPicture``, then
    /// `willStop`, `didStop`); nil never stops it. Ten seconds by default. Time paused, waiting or hidden does not
    /// count.
    public var pictureTimeout: Duration? {
        get { state.withLock { $0.pictureTimeout } }
        set { state.withLock { $0.pictureTimeout = newValue } }
    }

    /// Whether windows opened from now on record every frame they show (``PictureInPictureWindow/shownFrames``).
    public var recordsShownFrames: Bool {
        get { state.withLock { $0.recordsShownFrames } }
        set { state.withLock { $0.recordsShownFrames = newValue } }
    }

    /// The system clock's time in seconds (the manual clock's time, or real time since the system was made).
    public var now: Double {
        if case .manual(let manual) = clock { return manual.now.seconds }
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    // MARK: Windows

    /// The open window of `controller`'s session, if any.
    public func window(for controller: PictureInPictureController) -> PictureInPictureWindow? {
        state.withLock { $0.windows[ObjectIdentifier(controller.core)] }
    }

    /// Every open window, oldest session first.
    public var windows: [PictureInPictureWindow] {
        state.withLock { $0.windows.values.sorted { $0.session < $1.session } }
    }

    /// The registered controllers' connections, in registration order.
    var connections: [PictureInPictureHostConnection] {
        state.withLock { $0.connections.values.sorted { $0.serial < $1.serial }.map(\.connection) }
    }

    func window(of connection: PictureInPictureHostConnection) -> PictureInPictureWindow? {
        state.withLock { $0.windows[connection.id] }
    }

    // MARK: PictureInPictureHost

    /// The device's support and the app's audio session and capability, with the content's readiness.
    public func preconditions(isContentSourceReadyForDisplay: Bool) -> PictureInPicturePreconditions {
        PictureInPicturePreconditions(
            isSupportedByHost: isPictureInPictureSupported, audioSession: app.audioSession,
            hasBackgroundAudioCapability: app.hasBackgroundAudioCapability,
            isContentSourceReadyForDisplay: isContentSourceReadyForDisplay)
    }

    /// Keeps `connection` for lifecycle events.
    public func register(_ connection: PictureInPictureHostConnection) {
        state.withLock { s in
            s.serial += 1
            s.connections[connection.id] = (s.serial, connection)
        }
    }

    /// Drops `connection` and any window it still has.
    public func unregister(_ connection: PictureInPictureHostConnection) {
        let window = state.withLock { s -> PictureInPictureWindow? in
            s.connections.removeValue(forKey: connection.id)
            return s.windows.removeValue(forKey: connection.id)
        }
        window?.dismiss()
    }

    /// Opens a window after ``startLatency`` (fails at once when ``openFailure`` is set or the app has terminated).
    public func openWindow(_ session: SessionID, for connection: PictureInPictureHostConnection) {
        let (latency, failure) = state.withLock { ($0.startLatency, $0.openFailure) }
        if app.lifecycle == .terminated {
            connection.failedToOpenWindow(session, reason: "the app has terminated")
        } else if let failure {
            connection.failedToOpenWindow(session, reason: failure)
        } else if latency <= .zero {
            openNow(session, for: connection)
        } else {
            schedule(after: latency) { [weak self] in self?.openNow(session, for: connection) }
        }
    }

    /// Opens the window unless the session has ended meanwhile (a stale open does nothing).
    private func openNow(_ session: SessionID, for connection: PictureInPictureHostConnection) {
        guard connection.currentSession == session, !connection.isActive else { return }
        let (records, locked) = (recordsShownFrames, app.isScreenLocked)
        let window = PictureInPictureWindow(
            session: session, connection: connection, recordsFrames: records,
            hiddenByLock: locked
        ) { [weak self] in self?.now ?? 0 }
        let previous = state.withLock { s in
            defer { s.windows[connection.id] = window }
            return s.windows[connection.id]
        }
        previous?.dismiss()
        observePlayer(of: window)
        connection.didOpenWindow(session)
        refresh(window, force: true)
    }

    /// Closes the window at once and reports it (except after termination).
    public func closeWindow(_ session: SessionID, reason: StopReason, for connection: PictureInPictureHostConnection) {
        let window = state.withLock { s -> PictureInPictureWindow? in
            guard let window = s.windows[connection.id], window.session == session else { return nil }
            return s.windows.removeValue(forKey: connection.id)
        }
        window?.dismiss()
        // A terminated app's window is simply gone: the machine expects no answer.
        if reason != .appTerminated { connection.didCloseWindow(session) }
    }

    /// Hides the window (suspension).
    public func hideWindow(_ session: SessionID, for connection: PictureInPictureHostConnection) {
        guard let window = window(of: connection), window.session == session else { return }
        window.setHidden(bySuspension: true)
    }

    /// Shows the window again.
    public func showWindow(_ session: SessionID, for connection: PictureInPictureHostConnection) {
        guard let window = window(of: connection), window.session == session else { return }
        window.setHidden(bySuspension: false)
    }

    /// Points the open window and its playback state at the new source, and reports the state.
    public func contentSourceDidChange(for connection: PictureInPictureHostConnection) {
        guard let window = window(of: connection) else { return }
        window.attach(connection.contentSource, generation: connection.contentSourceGeneration)
        observePlayer(of: window)
        refresh(window, force: true)
    }

    /// Reports the window's playback state again.
    public func playbackStateDidInvalidate(for connection: PictureInPictureHostConnection) {
        guard let window = window(of: connection) else { return }
        refresh(window, force: true)
    }

    /// Runs `work` after `delay` of the system's clock (at once for zero).
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        guard delay > .zero else { return work() }
        guard case .manual(let manual) = clock else {
            let (seconds, attoseconds) = delay.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: work)
            return
        }
        let start = manual.now
        state.withLock { s in
            s.serial += 1
            s.timers.append(Timer(start: start, delay: MediaTime(delay), serial: s.serial, work: work))
        }
    }
}

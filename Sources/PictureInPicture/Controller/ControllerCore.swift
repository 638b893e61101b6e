import Locking
import Playback

/// The driver behind a ``PictureInPictureController``: it feeds the controller's state machine and performs the
/// actions the machine returns, in order, outside any lock.
///
/// Every input (an app call, a host answer, a user action in the window, a timer) is fed to the machine under the
/// core's lock, and the returned actions are appended to one work queue in the same critical section, so the
/// queue holds actions in the machine's order. Whoever finds the queue idle becomes its drainer and performs the
/// work with the lock released; inputs that arrive meanwhile, from other threads or re-entrantly from the host
/// (a window that opens at once calls back from inside `openWindow`), are queued behind and performed by the
/// same drainer. App code never runs here: delegate calls are handed to the ``CallbackExecutor``.
///
/// The core outlives its controller while a session is still closing: the host holds it through its
/// ``PictureInPictureHostConnection`` until the released controller's last `didStop`.
final class ControllerCore: Sendable {
    /// One thing to perform, in queue order.
    enum Work {
        /// A machine action; `session` is the machine's session after the batch that produced it.
        case action(PictureInPictureAction, session: SessionID?)
        /// An event from the host (playback state, item changes) for the stream.
        case publish(PictureInPictureControllerEvent)
        /// Tell the host that the content source was replaced.
        case contentSourceChanged
        /// After a release: unregister and end the event stream once no session is left.
        case finishIfReleased
    }

    struct WeakController: Sendable { weak var value: PictureInPictureController? }
    struct WeakDelegate: Sendable { weak var value: (any PictureInPictureControllerDelegate)? }

    struct State {
        var machine: PictureInPictureStateMachine
        var source: ContentSource
        var sourceGeneration: UInt64 = 0
        var frameToken: UInt64?
        var preconditionRefreshPending = false
        var canStartAutomatically = false
        var queue: [Work] = []
        var draining = false
        var skipWaiters: [SkipRequestID: CheckedContinuation<PictureInPictureSkipOutcome, Never>] = [:]
        var lastRestoreFailure: RestoreFailure?
        var controller = WeakController()
        var delegate = WeakDelegate()
        var finished = false

        /// Queues `actions`; returns true when the caller must drain (nobody else is draining).
        mutating func enqueue(_ actions: [PictureInPictureAction]) -> Bool {
            let session = machine.currentSession
            queue.append(contentsOf: actions.map { .action($0, session: session) })
            return claimDrain()
        }

        mutating func claimDrain() -> Bool {
            guard !draining, !queue.isEmpty else { return false }
            draining = true
            return true
        }
    }

    let state: Locked<State>
    let host: any PictureInPictureHost
    let executor = CallbackExecutor(label: "playctl.pip.callbacks")
    let events = EventBroadcaster<PictureInPictureControllerEvent>()
    /// The same events at the moment they are produced, on the thread that produced them (synchronous observers
    /// only), before the executor delivers them.
    let produced = EventBroadcaster<PictureInPictureControllerEvent>()

    init(source: ContentSource, host: any PictureInPictureHost) {
        self.host = host
        let ready = source.isReadyForDisplay
        let machine = PictureInPictureStateMachine(
            profile: host.profile, preconditions: host.preconditions(isContentSourceReadyForDisplay: ready),
            restoreTimeout: host.restoreTimeout)
        state = Locked(State(machine: machine, source: source))
        attachFrameListener()
    }

    var connection: PictureInPictureHostConnection { PictureInPictureHostConnection(core: self) }

    // MARK: Feeding the machine

    /// Feeds one input and performs the resulting actions (or queues them behind the current drainer).
    func feed(_ body: (inout State) -> [PictureInPictureAction]) {
        let mustDrain = state.withLock { s in s.enqueue(body(&s)) }
        if mustDrain { drain() }
    }

    /// Queues work that is not a machine action.
    func submit(_ work: Work) {
        let mustDrain = state.withLock { s in
            s.queue.append(work)
            return s.claimDrain()
        }
        if mustDrain { drain() }
    }

    /// Performs queued work until the queue is empty.
    func drain() {
        while let work = state.withLock({ s -> Work? in
            if s.queue.isEmpty {
                s.draining = false
                return nil
            }
            return s.queue.removeFirst()
        }) {
            perform(work)
        }
    }

    // MARK: Inputs

    /// The app calls `startPictureInPicture()`.
    func start() throws(PictureInPictureError) {
        let preconditions = samplePreconditions()
        let mustDrain = try state.withLock { s throws(PictureInPictureError) -> Bool in
            s.enqueue(try s.machine.startRequested(preconditions: preconditions))
        }
        if mustDrain { drain() }
    }

    /// The preconditions as they are now.
    func samplePreconditions() -> PictureInPicturePreconditions {
        let source = state.withLock { $0.source }
        return host.preconditions(isContentSourceReadyForDisplay: source.isReadyForDisplay)
    }

    /// Samples the preconditions and tells the machine (which reports `possible` on a flip).
    func refreshPreconditions() {
        let preconditions = samplePreconditions()
        feed { s in
            s.preconditionRefreshPending = false
            return s.machine.preconditionsChanged(preconditions)
        }
    }

    /// The app assigns a new content source.
    func replaceContentSource(_ new: ContentSource) {
        let ready = new.isReadyForDisplay
        let mustDrain = state.withLock { s -> Bool in
            if let token = s.frameToken { s.source.removeFrameListener(token) }
            s.source = new
            s.sourceGeneration += 1
            s.frameToken = nil
            let drain = s.enqueue(s.machine.contentSourceReplaced(isReadyForDisplay: ready))
            s.queue.append(.contentSourceChanged)
            return drain || s.claimDrain()
        }
        attachFrameListener()
        if mustDrain { drain() }
        if new.sampleBufferDisplayLayer != nil { querySampleBufferState(of: new) }
    }

    /// Listens to the current source's frames, to notice when it becomes ready for display.
    private func attachFrameListener() {
        state.withLock { s in
            let generation = s.sourceGeneration
            s.frameToken = s.source.addFrameListener { [weak self] _ in self?.contentFrameShown(generation: generation)
            }
        }
    }

    /// Runs where the layer reports its frames (a player's callback executor, or the app's thread for a
    /// sample-buffer layer): only a flag check here; the machine is told from this controller's executor.
    private func contentFrameShown(generation: UInt64) {
        let refresh = state.withLock { s -> Bool in
            guard s.sourceGeneration == generation, !s.machine.preconditions.isContentSourceReadyForDisplay,
                !s.preconditionRefreshPending
            else { return false }
            s.preconditionRefreshPending = true
            return true
        }
        if refresh { executor.enqueue { [weak self] in self?.refreshPreconditions() } }
    }

    /// The controller is released (deinit or `invalidate()`): the machine stops a running session, and the
    /// core finishes once no session is left.
    func release() {
        feed { $0.machine.controllerReleased() }
        submit(.finishIfReleased)
    }
}

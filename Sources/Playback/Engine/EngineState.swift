/// Everything a player's engine knows, as values behind its one lock (``PlayerCore``).
///
/// Each part is a value with its own rules: the time-control machine (AVPlayer's rate and status), the seek book
/// (latest wins), the item queue and loads, the timeline, what has been shown, the buffer reports, the time
/// observers, the outputs and the clock's own state. The driver changes them under the lock and collects what
/// must happen outside it in ``work``.
struct EngineState: Sendable {
    var control: TimeControlStateMachine
    var seeks = SeekBook()
    var queue = ItemQueue()
    var timeline = Timeline()
    var presentation = PresentationState()
    var buffering = BufferingReport()
    var observers = TimeObserverSet()
    var outputs = Outputs()
    var clock: ClockState
    /// The sound server's device (PulseAudio output).
    var device = AudioDeviceState()
    var actionAtItemEnd: ActionAtItemEnd
    /// How items' audio and subtitle options are chosen when they load (the player's criteria).
    var selectionRules = MediaSelectionRules()
    /// Called (on the callback executor) when the current item is about to advance; used by `PlayerLooper`.
    var willAdvance: (@Sendable (PlayerItem) -> Void)?
    /// Why the rate changes, while a rate change is emitted (read by the metrics).
    var rateChangeReason: RateChangeReason = .setRateCalled
    var stopped = false
    /// Publications so far (events, and metrics not tied to an event): see ``Sequenced``.
    var published: UInt64 = 0
    /// What the current locked section decided to do once the lock is released.
    var work: [EngineWork] = []

    init(control: TimeControlStateMachine, clock: ClockState, actionAtItemEnd: ActionAtItemEnd) {
        self.control = control
        self.clock = clock
        self.actionAtItemEnd = actionAtItemEnd
    }
}

/// Where a player's frames and audio go (library objects, called under the lock, which hand app code to the
/// callback executor).
struct Outputs: Sendable {
    var receivers: [any VideoFrameReceiver] = []
    var audioTaps: [AudioTap] = []
    /// The gain of the audio played on a device (`Player.volume`, 0...1), and `Player.isMuted`.
    var volume: Float = 1
    var muted = false
}

/// The clock's own state: virtual time under the manual and untimed clocks, and the manual clock's advances
/// waiting to be carried out.
struct ClockState: Sendable {
    /// Host time (seconds) when the player was made: clock time zero under the host clock.
    let origin: Double
    /// Virtual time under a manual clock (the clock's time, once the player has caught up with it).
    var manualNow: Double = 0
    /// Virtual time under the untimed clock.
    var virtualNow: Double = 0
    /// Manual clock advances waiting to be carried out: their target, and whom to resume once done.
    var advanceRequests: [(target: MediaTime, done: CheckedContinuation<Void, Never>)] = []
    /// Host clock: passes in a row that looked again at once, without waiting (see `HostPacing`).
    var passesWithoutWait = 0
}

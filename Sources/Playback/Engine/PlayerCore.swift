import Foundation
import Synchronization

/// The driver behind a ``Player``: its state as values (``EngineState``) behind one lock, one engine thread that
/// presents frames and follows the clock, and one callback executor for everything that runs app code.
///
/// The rule is ControllerCore's (PictureInPicture): decide in a value, act in the driver.
/// - Every input (an API call from any thread, a pipeline's progress, a load finishing, a clock advance) changes
///   the state under `condition`, the one lock. What must happen outside the lock (starting a loader thread,
///   stopping an item's decoders) is collected as ``EngineWork`` and done after releasing it.
/// - App code (video sinks, layer observers, time observers, event and metric observers and streams, seek
///   completions, the looper's hook) never runs on the engine thread or under the lock: it is handed, in the order
///   it was decided, to the player's ``CallbackExecutor``, so a callback may call the player.
/// - The engine asks the pipelines (decoding threads) for a snapshot or for due frames, one call each, under this
///   lock (lock order: engine, then pipeline). A pipeline takes this lock only in ``wake()`` (once per decoded
///   frame, landing or end), with its own lock released: never the other order.
/// - How time moves is a ``Pacing`` strategy: host, manual or untimed.
final class PlayerCore: @unchecked Sendable, ManualClockParticipant {
    /// Guards `state`; the engine thread waits on it for frames, clock time, landings and loads.
    let condition = NSCondition()
    /// Guarded by `condition`.
    var state: EngineState
    /// Counts the signals sent to the engine thread (guarded by `condition`): a pass that released the lock on
    /// its way (to do work or let callbacks run) sees whether something happened meanwhile before it waits.
    private(set) var signals: UInt64 = 0
    let events: EventBroadcaster<Sequenced<PlayerEvent>>
    /// Typed metric streams derived from the events, and the hang watchdog of the callbacks.
    let metrics: MetricsCollector
    /// Where app code runs.
    let executor = CallbackExecutor(label: "playctl.callbacks")
    let clockMode: ClockMode
    let pacing: any Pacing
    let clockOrder: UInt64
    let audioEnabled: Bool
    /// The video decoder's threads for the items it loads (0: FFmpeg's choice).
    let decoderThreads: Int
    /// Bytes of decoded pictures each item's video pipeline queues ahead of presentation.
    let decodedVideoBytes: Int
    let audioOutput: AudioOutput
    private static let counter = Atomic<UInt64>(0)

    init(
        clock: ClockMode, actionAtItemEnd: ActionAtItemEnd, audioEnabled: Bool, automaticallyWaits: Bool = true,
        audioOutput: AudioOutput = .null, decoderThreads: Int = 0,
        decodedVideoBytes: Int = Player.defaultDecodedVideoBytes
    ) {
        clockMode = clock
        pacing = clock.pacing
        self.audioEnabled = audioEnabled
        self.decoderThreads = max(decoderThreads, 0)
        self.decodedVideoBytes = max(decodedVideoBytes, 0)
        self.audioOutput = audioOutput
        var clockState = ClockState(origin: HostTime.now())
        // A player made after a manual clock has moved starts at the clock's time, not at zero.
        clockState.manualNow = clock.manualClock?.now.seconds ?? 0
        state = EngineState(
            control: TimeControlStateMachine(automaticallyWaitsToMinimizeStalling: automaticallyWaits),
            clock: clockState, actionAtItemEnd: actionAtItemEnd)
        events = EventBroadcaster()
        metrics = MetricsCollector(clock: clock, origin: clockState.origin)
        clockOrder = Self.counter.add(1, ordering: .relaxed).newValue
        metrics.attach(to: self)
    }

    func start() {
        startDedicatedThread(name: "playctl.player") { [self] in runLoop() }
        clockMode.manualClock?.register(self)
        if let connector = audioOutput.connector { connectAudioDevice(connector) }
    }

    /// The engine thread: one pass of the pacing strategy at a time, with the lock held between passes.
    private func runLoop() {
        condition.lock()
        while !state.stopped {
            pacing.iterate(self)
        }
        condition.unlock()
    }

    /// Stops the engine thread and every item's decoding; owed seek completions get false, the manual clock's
    /// waiters are released, and the event and metric streams end after what was already sent. The engine is
    /// unusable afterwards.
    func shutdown() {
        condition.lock()
        guard !state.stopped else {
            condition.unlock()
            return
        }
        state.stopped = true
        var work = state.queue.removeAll()
        work += state.work
        state.work.removeAll()
        let completions = state.seeks.removeAll()
        let advances = state.clock.advanceRequests.map(\.done)
        state.clock.advanceRequests.removeAll()
        let finish = metrics.finish(at: clockNow(), sequence: nextPublication(), facts: self)
        let device = state.device.device
        state.device.device = nil
        signal()
        condition.unlock()
        device?.close()
        perform(work)
        clockMode.manualClock?.unregister(self)
        let events = self.events
        executor.enqueue {
            for completion in completions { completion(false) }
            finish()
            events.finish()
            for advance in advances { advance.resume() }
        }
        executor.close()
    }

    // MARK: Locked sections

    /// Runs `body` with the lock held, wakes the engine thread, and then does the work `body` decided.
    @discardableResult
    func mutate<T>(_ body: (PlayerCore) throws -> T) rethrows -> T {
        condition.lock()
        let result: T
        do {
            result = try body(self)
        } catch {
            let work = takeWork()
            signal()
            condition.unlock()
            perform(work)
            throw error
        }
        let work = takeWork()
        signal()
        condition.unlock()
        perform(work)
        return result
    }

    /// Locked: wakes the engine thread and records that something happened.
    func signal() {
        signals &+= 1
        condition.broadcast()
    }

    /// Reads the state with the lock held (without waking the engine thread).
    func read<T>(_ body: (PlayerCore) throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body(self)
    }

    /// Wakes the engine thread (a pipeline produced something, a source waits for the clock).
    func wake() {
        condition.lock()
        signal()
        condition.unlock()
    }

    /// Locked: takes the work collected so far.
    func takeWork() -> [EngineWork] {
        defer { state.work.removeAll() }
        return state.work
    }

    /// Engine thread, locked: does the work collected so far with the lock released, then takes it again.
    func performCollectedWork() {
        guard !state.work.isEmpty else { return }
        let work = takeWork()
        condition.unlock()
        perform(work)
        condition.lock()
    }

    /// Engine thread, locked: under the manual and untimed clocks, waits (with the lock released) until every
    /// callback handed to the executor so far has run, so that what app code does from a callback takes effect at
    /// the clock time it was called for, the same on every run.
    func awaitCallbacks() {
        guard pacing.waitsForCallbacks, !executor.isIdle else { return }
        condition.unlock()
        executor.waitUntilIdle()
        condition.lock()
    }

    /// Does `work`, unlocked.
    func perform(_ work: [EngineWork]) {
        for item in work {
            switch item {
            case .startLoad(let playerItem, let sources): startLoad(playerItem, sources: sources)
            case .stopLoadedItem(let loaded): loaded.stop()
            case .closeSources(let sources): sources.closeAll()
            case .detach(let playerItem):
                playerItem.state.withLock { if $0.core === self { $0.core = nil } }
            case .prepareAudioDevice(let device, let sampleRate, let channels):
                prepareAudioDevice(device, sampleRate: sampleRate, channels: channels)
            case .streamStalled(let session): session.playbackStalled()
            case .streamPlayhead(let session, let seconds): session.playheadMoved(to: seconds)
            }
        }
    }

    // MARK: Manual clock

    func clockDidAdvance(to time: MediaTime) async {
        await withCheckedContinuation { continuation in
            condition.lock()
            if state.stopped {
                condition.unlock()
                continuation.resume()
                return
            }
            state.clock.advanceRequests.append((time, continuation))
            signal()
            condition.unlock()
        }
    }
}

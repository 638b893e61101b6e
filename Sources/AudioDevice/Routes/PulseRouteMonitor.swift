import CPulse
import Dispatch
import Locking

/// Watches a PulseAudio server (or PipeWire's pulse server) for what an app's audio session is told on iOS: its
/// default sink changing (a route change: a device unplugged, plugged in, or another chosen) and the server going
/// away and coming back (an interruption). The changes are decided by ``AudioRouteState``, a value.
///
/// It has a connection and a libpulse threaded main loop of its own (its callbacks only gather the server's answers
/// and queue them); the changes go to the handler on a serial queue of its own, in order, with no lock held (it may
/// call back into the monitor). A lost connection is tried again after 0.25 s, then twice as long each time, up to
/// 2 s; nothing waits for the server.
public final class PulseRouteMonitor: @unchecked Sendable {
    /// What the monitor tells of: a change, with the snapshot of the server it came with (nil for an interruption's
    /// beginning).
    public typealias Handler = @Sendable (AudioRouteState.Change) -> Void

    struct Inner {
        var machine = AudioRouteState()
        var context: OpaquePointer?
        var stopped = false
        var retryDelay = PulseRouteMonitor.firstRetryDelay
    }

    static let firstRetryDelay = 0.25
    static let longestRetryDelay = 2.0

    let pulse: PulseLibrary
    let introspection: PulseIntrospection
    let mainloop: OpaquePointer
    let server: String?
    let handler: Handler
    let queue = DispatchQueue(label: "playctl.audio-route")
    let state = Locked(Inner())
    let relay: RouteRelay

    /// Starts watching `server` (as `PULSE_SERVER` names one; nil: `PULSE_SERVER`, else the default). Returns at
    /// once: ``route`` is nil until the server's first answer; a server that is not there is tried again.
    /// - Throws: `libraryMissing` without libpulse, `serverUnavailable` when libpulse cannot make a main loop.
    public static func start(
        server: String? = nil, handler: @escaping Handler
    ) throws(AudioDeviceError)
        -> PulseRouteMonitor
    {
        let pulse = try PulseLibrary.shared.get()
        let introspection = try PulseIntrospection.shared.get()
        guard let mainloop = pulse.mainloopNew() else {
            throw AudioDeviceError(.serverUnavailable, "pa_threaded_mainloop_new failed")
        }
        guard pulse.mainloopStart(mainloop) >= 0 else {
            pulse.mainloopFree(mainloop)
            throw AudioDeviceError(.serverUnavailable, "pa_threaded_mainloop_start failed")
        }
        let monitor = PulseRouteMonitor(
            pulse: pulse, introspection: introspection, mainloop: mainloop, server: server, handler: handler)
        monitor.queue.async { [weak monitor] in monitor?.connect() }
        return monitor
    }

    private init(
        pulse: PulseLibrary, introspection: PulseIntrospection, mainloop: OpaquePointer, server: String?,
        handler: @escaping Handler
    ) {
        self.pulse = pulse
        self.introspection = introspection
        self.mainloop = mainloop
        self.server = server
        self.handler = handler
        relay = RouteRelay(pulse: pulse, introspection: introspection, queue: queue)
        relay.monitor = self
    }

    deinit { stop() }

    /// The route: the server's default sink as last seen (nil before its first answer, or without a sink).
    public var route: AudioRoutePort? { state.withLock { $0.machine.route } }

    /// Whether the server went away and has not come back.
    public var isInterrupted: Bool { state.withLock { $0.machine.isInterrupted } }

    /// Stops watching: no change is reported after it returns, but one the handler is running. Idempotent.
    public func stop() {
        let (running, context) = state.withLock { inner -> (Bool, OpaquePointer?) in
            guard !inner.stopped else { return (false, nil) }
            inner.stopped = true
            defer { inner.context = nil }
            return (true, inner.context)
        }
        guard running else { return }
        pulse.mainloopLock(mainloop)
        if let context { close(context) }
        pulse.mainloopUnlock(mainloop)
        pulse.mainloopStop(mainloop)
        pulse.mainloopFree(mainloop)
    }

    /// On the queue: a new connection, unless one is there or the monitor stopped.
    func connect() {
        state.withLock { inner in
            guard !inner.stopped, inner.context == nil else { return }
            pulse.mainloopLock(mainloop)
            defer { pulse.mainloopUnlock(mainloop) }
            guard let api = pulse.mainloopAPI(mainloop), let context = pulse.contextNew(api, "playctl route monitor")
            else {
                retry(&inner)
                return
            }
            let relay = Unmanaged.passUnretained(self.relay).toOpaque()
            introspection.setStateCallback(
                context, { context, relay in RouteRelay.of(relay)?.stateChanged(context) }, relay)
            let connected = server.withOptionalCString {
                pulse.contextConnect(context, $0, PA_CONTEXT_NOAUTOSPAWN, nil)
            }
            guard connected >= 0 else {
                close(context)
                retry(&inner)
                return
            }
            inner.context = context
        }
    }

    /// On the queue: `context` failed or was closed by the server.
    func lost(_ context: OpaquePointer?) {
        let changes = state.withLock { inner -> [AudioRouteState.Change] in
            guard !inner.stopped, let current = inner.context, current == context else { return [] }
            pulse.mainloopLock(mainloop)
            close(current)
            pulse.mainloopUnlock(mainloop)
            inner.context = nil
            retry(&inner)
            return inner.machine.disconnected()
        }
        for change in changes { handler(change) }
    }

    /// On the queue: the server's answer.
    func received(_ snapshot: AudioRouteSnapshot) {
        let changes = state.withLock { inner -> [AudioRouteState.Change] in
            guard !inner.stopped else { return [] }
            inner.retryDelay = Self.firstRetryDelay
            return inner.machine.received(snapshot)
        }
        for change in changes { handler(change) }
    }

    /// Under the state's lock: another connection after the delay, which doubles.
    private func retry(_ inner: inout Inner) {
        let delay = inner.retryDelay
        inner.retryDelay = min(delay * 2, Self.longestRetryDelay)
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in self?.connect() }
    }

    /// Under the main loop's lock: no more callbacks from `context`, then it is closed and freed.
    private func close(_ context: OpaquePointer) {
        introspection.setStateCallback(context, nil, nil)
        introspection.setSubscribeCallback(context, nil, nil)
        pulse.contextDisconnect(context)
        pulse.contextUnref(context)
    }
}

/// What the C callbacks get as their user data (the monitor holds it for its whole life, longer than its main
/// loop): the monitor, weakly (it is never made strong on the main loop's thread, whose last reference would free
/// the monitor there), and the server's answer being gathered (touched only on the main loop's thread).
final class RouteRelay: @unchecked Sendable {
    weak var monitor: PulseRouteMonitor?
    private let pulse: PulseLibrary
    private let introspection: PulseIntrospection
    private let queue: DispatchQueue
    private var defaultSink: String?
    private var ports: [AudioRoutePort] = []

    init(pulse: PulseLibrary, introspection: PulseIntrospection, queue: DispatchQueue) {
        self.pulse = pulse
        self.introspection = introspection
        self.queue = queue
    }

    static func of(_ userdata: UnsafeMutableRawPointer?) -> RouteRelay? {
        userdata.map { Unmanaged<RouteRelay>.fromOpaque($0).takeUnretainedValue() }
    }

    private var pointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The context's state changed: ready, it subscribes to the sinks' and the server's events and asks for the
    /// route; failed or closed, the monitor is told (on its queue).
    func stateChanged(_ context: OpaquePointer?) {
        switch pulse.contextState(context) {
        case PA_CONTEXT_READY:
            introspection.setSubscribeCallback(
                context, { context, _, _, relay in RouteRelay.of(relay)?.ask(context) }, pointer)
            let mask = pa_subscription_mask_t(PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SERVER.rawValue)
            done(introspection.subscribe(context, mask, nil, nil))
            ask(context)
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            // The context pointer is compared only, on the queue, with the monitor's current one.
            let address = context.map { UInt(bitPattern: $0) }
            queue.async { [self] in monitor?.lost(address.flatMap { OpaquePointer(bitPattern: $0) }) }
        default: break
        }
    }

    /// Asks for the default sink, then every sink; the answer goes to the monitor once the list has ended.
    func ask(_ context: OpaquePointer?) {
        let asked = introspection.serverInfo(
            context,
            { context, info, relay in
                guard let relay = RouteRelay.of(relay) else { return }
                relay.defaultSink = info?.pointee.default_sink_name.map { String(cString: $0) }
                relay.ports = []
                relay.done(
                    relay.introspection.sinkInfoList(
                        context,
                        { _, info, end, relay in
                            guard let relay = RouteRelay.of(relay) else { return }
                            if end == 0, let info { relay.ports.append(relay.port(info.pointee)) }
                            if end > 0 { relay.answered() }
                        }, relay.pointer))
            }, pointer)
        done(asked)
    }

    private func answered() {
        let snapshot = AudioRouteSnapshot(route: ports.first { $0.name == defaultSink }, ports: ports)
        ports = []
        queue.async { [self] in monitor?.received(snapshot) }
    }

    private func port(_ info: pa_sink_info) -> AudioRoutePort {
        func property(_ key: String) -> String? {
            introspection.proplistGets(info.proplist, key).map { String(cString: $0) }
        }
        return AudioRoutePort(
            name: info.name.map { String(cString: $0) } ?? "",
            description: info.description.map { String(cString: $0) } ?? "",
            bus: property("device.bus"), formFactor: property("device.form_factor"))
    }

    private func done(_ operation: OpaquePointer?) {
        if let operation { pulse.operationUnref(operation) }
    }
}

import CPulse
import Locking

#if canImport(Glibc)
import Glibc
#endif

/// One connection to a PulseAudio server (or PipeWire's pulse server) and one playback stream on it, through
/// libpulse's threaded main loop. Interleaved float samples in, and the device's latency out: what a player's
/// audio clock is computed from (the time of the last sample written minus the latency, as mpv does).
///
/// Every call takes the main loop's lock briefly and never waits for the server, except ``connect(sink:timeout:)``
/// and ``prepare(sampleRate:channels:)`` (a stream for a new format is made: one round trip, at most 2 s). A server
/// that dies is noticed by ``check()`` and by every call, which then throw `connectionLost`. The player's engine
/// calls it under its lock, but for `prepare`, which it calls with its lock released (so the playhead can be read
/// meanwhile); ``close()`` waits for a `prepare` under way.
public final class PulseAudioDevice: @unchecked Sendable {
    private let pulse: PulseLibrary
    private let mainloop: OpaquePointer
    private let context: OpaquePointer
    private let sink: String?
    private var stream: OpaquePointer?
    private var format: (rate: Int, channels: Int)?
    private var corked = false
    private var closed = false
    /// Whether ``close()`` has begun, held by it and by ``prepare(sampleRate:channels:)`` throughout: the main loop
    /// is freed only once no stream is being made (making one releases the main loop's lock while it waits).
    private let closing = Locked(false)

    /// The sink played to (nil: the server's default).
    public var sinkName: String? { sink }

    /// Connects to `server` (as `PULSE_SERVER` names one; nil: `PULSE_SERVER`, else the default), waiting up to
    /// `timeout` seconds.
    /// - Throws: `libraryMissing` without libpulse, `serverUnavailable` when no server answers in time.
    public static func connect(
        sink: String?, server: String? = nil, timeout: Double = 3
    ) throws(AudioDeviceError)
        -> PulseAudioDevice
    {
        let pulse = try PulseLibrary.shared.get()
        guard let mainloop = pulse.mainloopNew() else {
            throw AudioDeviceError(.serverUnavailable, "pa_threaded_mainloop_new failed")
        }
        guard let api = pulse.mainloopAPI(mainloop), let context = pulse.contextNew(api, "playctl") else {
            pulse.mainloopFree(mainloop)
            throw AudioDeviceError(.serverUnavailable, "pa_context_new failed")
        }
        let device = PulseAudioDevice(pulse: pulse, mainloop: mainloop, context: context, sink: sink)
        pulse.mainloopLock(mainloop)
        let connected = server.withOptionalCString { pulse.contextConnect(context, $0, PA_CONTEXT_NOAUTOSPAWN, nil) }
        pulse.mainloopUnlock(mainloop)
        guard connected >= 0, pulse.mainloopStart(mainloop) >= 0 else {
            throw AudioDeviceError(.serverUnavailable, device.lastError())
        }
        let ready = device.poll(timeout: timeout) { () -> Bool? in
            switch pulse.contextState(context) {
            case PA_CONTEXT_READY: return true
            case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED: return false
            default: return nil
            }
        }
        guard ready == true else {
            throw AudioDeviceError(.serverUnavailable, ready == nil ? "no answer in \(timeout) s" : device.lastError())
        }
        // A stream now (48 kHz stereo, most media's format; `prepare` makes one for another):
        // a sink that does not exist is reported here, before the player says the device is in use.
        try device.locked { () throws(AudioDeviceError) in try device.openStream(rate: 48_000, channels: 2) }
        return device
    }

    private init(pulse: PulseLibrary, mainloop: OpaquePointer, context: OpaquePointer, sink: String?) {
        self.pulse = pulse
        self.mainloop = mainloop
        self.context = context
        self.sink = sink == "default" ? nil : sink
    }

    deinit { close() }

    /// Disconnects and frees everything (the main loop's thread ends).
    public func close() {
        closing.withLock { closing in
            guard !closing else { return }
            closing = true
            pulse.mainloopLock(mainloop)
            closed = true
            closeStream()
            pulse.contextDisconnect(context)
            pulse.contextUnref(context)
            pulse.mainloopUnlock(mainloop)
            pulse.mainloopStop(mainloop)
            pulse.mainloopFree(mainloop)
        }
    }

    /// Makes a stream for `sampleRate` and `channels` unless the current one has them (what the old one held is
    /// dropped): one round trip to the server, at most 2 s. Until it is ready, the device has no stream (latency
    /// nil, nothing to cork or flush).
    /// - Throws: `deviceUnavailable` when the server does not make the stream in time; `connectionLost` when it
    ///   went away, or the device was closed.
    public func prepare(sampleRate: Int, channels: Int) throws(AudioDeviceError) {
        try closing.withLock { closing throws(AudioDeviceError) in
            guard !closing else { throw AudioDeviceError(.connectionLost, "closed") }
            try locked { () throws(AudioDeviceError) in
                try checkLocked()
                guard !hasStream(rate: sampleRate, channels: channels) else { return }
                try openStream(rate: sampleRate, channels: channels)
            }
        }
    }

    /// Throws `connectionLost` once the server has gone (its socket closed), or the stream failed.
    public func check() throws(AudioDeviceError) {
        try locked { () throws(AudioDeviceError) in try checkLocked() }
    }

    /// Writes interleaved float samples (`channels` a frame at `sampleRate`), scaled by `gain`. Returns false,
    /// writing nothing, when the device has no stream of that format: ``prepare(sampleRate:channels:)`` makes one
    /// (a write never waits for the server).
    public func write(
        _ samples: [Float], sampleRate: Int, channels: Int, gain: Float
    ) throws(AudioDeviceError) -> Bool {
        try locked { () throws(AudioDeviceError) -> Bool in
            try checkLocked()
            guard hasStream(rate: sampleRate, channels: channels) else { return false }
            let scaled = gain == 1 ? samples : samples.map { $0 * gain }
            let result = scaled.withUnsafeBytes { bytes in
                pulse.streamWrite(stream, bytes.baseAddress, bytes.count, nil, 0, PA_SEEK_RELATIVE)
            }
            if result < 0 { throw AudioDeviceError(.connectionLost, lastError()) }
            return true
        }
    }

    /// Seconds until a sample written now is heard (nil before anything was written, or before the server sent
    /// its first timing information).
    public func latency() throws(AudioDeviceError) -> Double? {
        try locked { () throws(AudioDeviceError) -> Double? in
            try checkLocked()
            guard let stream else { return nil }
            var usec: pa_usec_t = 0
            var negative: Int32 = 0
            guard pulse.streamLatency(stream, &usec, &negative) >= 0 else { return nil }
            return negative != 0 ? -Double(usec) / 1e6 : Double(usec) / 1e6
        }
    }

    /// Pauses (`true`) or resumes the stream: what it holds waits.
    public func setCorked(_ value: Bool) {
        locked {
            guard let stream, value != corked else { return }
            corked = value
            if let operation = pulse.streamCork(stream, value ? 1 : 0, nil, nil) { pulse.operationUnref(operation) }
        }
    }

    /// Starts playing what the stream holds even below its start threshold (the end of the audio: the last
    /// few tens of milliseconds would otherwise wait for more).
    public func trigger() {
        locked {
            guard let stream else { return }
            if let operation = pulse.streamTrigger(stream, nil, nil) { pulse.operationUnref(operation) }
        }
    }

    /// Drops what the stream holds and has not played (a seek, another item).
    public func flush() {
        locked {
            guard let stream else { return }
            if let operation = pulse.streamFlush(stream, nil, nil) { pulse.operationUnref(operation) }
        }
    }

    // MARK: Locked helpers

    private func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pulse.mainloopLock(mainloop)
        defer { pulse.mainloopUnlock(mainloop) }
        return try body()
    }

    /// Locked: whether the stream is ready and plays `rate` and `channels`.
    private func hasStream(rate: Int, channels: Int) -> Bool {
        format.map { $0.rate == rate && $0.channels == channels } ?? false
    }

    private func checkLocked() throws(AudioDeviceError) {
        guard !closed, pulse.contextState(context) == PA_CONTEXT_READY else {
            throw AudioDeviceError(.connectionLost, closed ? "closed" : "the sound server went away")
        }
        if let stream, pulse.streamState(stream) != PA_STREAM_READY {
            throw AudioDeviceError(.connectionLost, "the stream failed: \(lastError())")
        }
    }

    /// Locked: a new stream for `rate` and `channels` (float), about 80 ms of target latency, started at once.
    private func openStream(rate: Int, channels: Int) throws(AudioDeviceError) {
        closeStream()
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(rate), channels: UInt8(channels))
        guard let made = pulse.streamNew(context, "playctl", &spec, nil) else {
            throw AudioDeviceError(.deviceUnavailable, lastError())
        }
        let bytesPerSecond = UInt32(rate * channels * MemoryLayout<Float>.size)
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: bytesPerSecond * 80 / 1000, prebuf: UInt32.max, minreq: UInt32.max,
            fragsize: UInt32.max)
        let flags = pa_stream_flags_t(
            PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
                | PA_STREAM_ADJUST_LATENCY.rawValue)
        let connected = sink.withOptionalCString { name in
            pulse.streamConnect(made, name, &attributes, flags, nil, nil)
        }
        guard connected >= 0 else {
            let reason = lastError()
            discard(made)
            throw AudioDeviceError(.deviceUnavailable, reason)
        }
        // The stream is the device's once ready: the lock is released while waiting, and other calls meanwhile
        // see no stream rather than one that is not ready (which they would take for a failed one).
        let ready = pollLocked(timeout: 2) { () -> Bool? in
            switch pulse.streamState(made) {
            case PA_STREAM_READY: return true
            case PA_STREAM_FAILED, PA_STREAM_TERMINATED: return false
            default: return nil
            }
        }
        guard ready == true else {
            let reason = ready == nil ? "no answer in 2 s" : lastError()
            discard(made)
            throw AudioDeviceError(.deviceUnavailable, "\(sink ?? "default sink"): \(reason)")
        }
        stream = made
        format = (rate, channels)
        corked = false
    }

    private func discard(_ made: OpaquePointer) {
        _ = pulse.streamDisconnect(made)
        pulse.streamUnref(made)
    }

    private func closeStream() {
        guard let stream else { return }
        discard(stream)
        self.stream = nil
        format = nil
    }

    private func lastError() -> String {
        pulse.strerror(pulse.contextErrno(context)).map { String(cString: $0) } ?? "unknown error"
    }

    /// Polls `state` (under the main loop's lock) every millisecond until it says true or false, or `timeout`.
    private func poll(timeout: Double, _ state: () -> Bool?) -> Bool? {
        locked { pollLocked(timeout: timeout, state) }
    }

    /// Locked: as `poll`, releasing the lock between looks so the main loop's thread can work.
    private func pollLocked(timeout: Double, _ state: () -> Bool?) -> Bool? {
        let deadline = Self.monotonicSeconds() + timeout
        while Self.monotonicSeconds() < deadline {
            if let answer = state() { return answer }
            pulse.mainloopUnlock(mainloop)
            usleep(1000)
            pulse.mainloopLock(mainloop)
        }
        return state()
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

extension Optional where Wrapped == String {
    /// Calls `body` with the string as a C string, or with nil.
    func withOptionalCString<T>(_ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let self else { return body(nil) }
        return self.withCString(body)
    }
}

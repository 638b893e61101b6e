import CPulse

#if canImport(Glibc)
import Glibc
#endif

/// libpulse, loaded the first time a player asks for the PulseAudio output (`dlopen`), never linked: a process
/// that does not ask never loads it and the libraries it needs (as `MediaIO`'s `FilterLibrary` does for
/// libavfilter). Only the functions `PulseAudioDevice` calls are looked up; their types repeat libpulse's
/// prototypes (opaque objects as `OpaquePointer`).
struct PulseLibrary: @unchecked Sendable {
    typealias Make = @convention(c) () -> OpaquePointer?
    typealias Act = @convention(c) (OpaquePointer?) -> Void
    typealias Status = @convention(c) (OpaquePointer?) -> Int32
    typealias MainloopAPI = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<pa_mainloop_api>?
    typealias ContextNew =
        @convention(c) (UnsafeMutablePointer<pa_mainloop_api>?, UnsafePointer<CChar>?) -> OpaquePointer?
    typealias ContextConnect =
        @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, pa_context_flags_t, UnsafeRawPointer?) -> Int32
    typealias ContextState = @convention(c) (OpaquePointer?) -> pa_context_state_t
    typealias Strerror = @convention(c) (Int32) -> UnsafePointer<CChar>?
    typealias StreamNew =
        @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<pa_sample_spec>?, UnsafeRawPointer?)
        -> OpaquePointer?
    typealias StreamConnect =
        @convention(c) (
            OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<pa_buffer_attr>?, pa_stream_flags_t,
            UnsafeRawPointer?, OpaquePointer?
        ) -> Int32
    typealias StreamState = @convention(c) (OpaquePointer?) -> pa_stream_state_t
    typealias StreamWrite =
        @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int, UnsafeRawPointer?, Int64, pa_seek_mode_t) -> Int32
    typealias StreamLatency =
        @convention(c) (OpaquePointer?, UnsafeMutablePointer<pa_usec_t>?, UnsafeMutablePointer<Int32>?) -> Int32
    typealias StreamOperation =
        @convention(c) (OpaquePointer?, UnsafeRawPointer?, UnsafeMutableRawPointer?) -> OpaquePointer?
    typealias StreamCork =
        @convention(c) (OpaquePointer?, Int32, UnsafeRawPointer?, UnsafeMutableRawPointer?) -> OpaquePointer?

    let mainloopNew: Make
    let mainloopStart: Status
    let mainloopStop: Act
    let mainloopFree: Act
    let mainloopLock: Act
    let mainloopUnlock: Act
    let mainloopAPI: MainloopAPI
    let contextNew: ContextNew
    let contextConnect: ContextConnect
    let contextState: ContextState
    let contextErrno: Status
    let contextDisconnect: Act
    let contextUnref: Act
    let strerror: Strerror
    let streamNew: StreamNew
    let streamConnect: StreamConnect
    let streamState: StreamState
    let streamWrite: StreamWrite
    let streamLatency: StreamLatency
    let streamFlush: StreamOperation
    let streamTrigger: StreamOperation
    let streamCork: StreamCork
    let streamDisconnect: Status
    let streamUnref: Act
    let operationUnref: Act

    /// The library's file name (its soname).
    static let fileName = "libpulse.so.0"

    /// The library, loaded once (a static is initialized once, thread-safely); or why it could not be.
    static let shared: Result<PulseLibrary, AudioDeviceError> = load()

    /// The library's functions by name, typed: `symbols { symbol in ... }` (loads it, or says why it cannot be).
    static func withSymbols<T>(
        _ body: (_ symbol: (String) -> UnsafeMutableRawPointer?) -> Result<T, AudioDeviceError>
    ) -> Result<T, AudioDeviceError> {
        guard let handle = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
            return .failure(AudioDeviceError(.libraryMissing, "\(fileName) cannot be loaded: \(reason)"))
        }
        return body { dlsym(handle, $0) }
    }

    private static func load() -> Result<PulseLibrary, AudioDeviceError> {
        withSymbols { lookup in load(lookup) }
    }

    private static func load(_ lookup: (String) -> UnsafeMutableRawPointer?) -> Result<PulseLibrary, AudioDeviceError> {
        func symbol<F>(_ name: String, as type: F.Type = F.self) -> F? {
            lookup(name).map { unsafeBitCast($0, to: type) }
        }
        guard let mainloopNew: Make = symbol("pa_threaded_mainloop_new"),
            let mainloopStart: Status = symbol("pa_threaded_mainloop_start"),
            let mainloopStop: Act = symbol("pa_threaded_mainloop_stop"),
            let mainloopFree: Act = symbol("pa_threaded_mainloop_free"),
            let mainloopLock: Act = symbol("pa_threaded_mainloop_lock"),
            let mainloopUnlock: Act = symbol("pa_threaded_mainloop_unlock"),
            let mainloopAPI: MainloopAPI = symbol("pa_threaded_mainloop_get_api"),
            let contextNew: ContextNew = symbol("pa_context_new"),
            let contextConnect: ContextConnect = symbol("pa_context_connect"),
            let contextState: ContextState = symbol("pa_context_get_state"),
            let contextErrno: Status = symbol("pa_context_errno"),
            let contextDisconnect: Act = symbol("pa_context_disconnect"),
            let contextUnref: Act = symbol("pa_context_unref"),
            let strerror: Strerror = symbol("pa_strerror"),
            let streamNew: StreamNew = symbol("pa_stream_new"),
            let streamConnect: StreamConnect = symbol("pa_stream_connect_playback"),
            let streamState: StreamState = symbol("pa_stream_get_state"),
            let streamWrite: StreamWrite = symbol("pa_stream_write"),
            let streamLatency: StreamLatency = symbol("pa_stream_get_latency"),
            let streamFlush: StreamOperation = symbol("pa_stream_flush"),
            let streamTrigger: StreamOperation = symbol("pa_stream_trigger"),
            let streamCork: StreamCork = symbol("pa_stream_cork"),
            let streamDisconnect: Status = symbol("pa_stream_disconnect"),
            let streamUnref: Act = symbol("pa_stream_unref"),
            let operationUnref: Act = symbol("pa_operation_unref")
        else { return .failure(AudioDeviceError(.libraryMissing, "\(fileName) lacks a function playctl calls")) }
        return .success(
            PulseLibrary(
                mainloopNew: mainloopNew, mainloopStart: mainloopStart, mainloopStop: mainloopStop,
                mainloopFree: mainloopFree, mainloopLock: mainloopLock, mainloopUnlock: mainloopUnlock,
                mainloopAPI: mainloopAPI, contextNew: contextNew, contextConnect: contextConnect,
                contextState: contextState, contextErrno: contextErrno, contextDisconnect: contextDisconnect,
                contextUnref: contextUnref, strerror: strerror, streamNew: streamNew, streamConnect: streamConnect,
                streamState: streamState, streamWrite: streamWrite, streamLatency: streamLatency,
                streamFlush: streamFlush, streamTrigger: streamTrigger, streamCork: streamCork,
                streamDisconnect: streamDisconnect,
                streamUnref: streamUnref, operationUnref: operationUnref))
    }
}

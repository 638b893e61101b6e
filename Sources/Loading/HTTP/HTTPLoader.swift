import CCurl
import Foundation
import Locking

/// The HTTP(S) transport: libcurl's multi interface on one thread of its own, shared by every transfer, so
/// connections are reused (keep-alive, HTTP/2 multiplexing) and transfers can be paused, resumed and capped.
///
/// Transfers' sinks are called on the loader's thread. A transfer's handle may be used from any thread: what it
/// asks is queued and done by the loader's thread, which libcurl requires. The thread and its multi handle (with
/// its cache of open connections) start with the first transfer and end after ``Configuration/idleLifetime``
/// seconds without one, so an idle process holds no thread, socket or descriptor of the loader's.
public final class HTTPLoader: Transport, @unchecked Sendable {
    /// How transfers connect and when they give up.
    public struct Configuration: Sendable {
        /// Seconds to establish a connection (DNS, TCP, TLS) before failing with `.timedOut`.
        public var connectTimeout: Double = 10
        /// Seconds without a byte (while not paused) before a transfer fails with `.timedOut`.
        public var stallTimeout: Int = 15
        /// Connections to one host at most; further transfers wait for one.
        public var maximumConnectionsPerHost: Int = 6
        /// Seconds the loader's thread waits for a new transfer before it ends.
        public var idleLifetime: Double = 5
        public var userAgent = "playctl/0.1"
        /// HTTP header fields sent with every request (a request's own field of the same name replaces one; see
        /// ``HTTPHeaderFields`` for which are never sent). Never logged, nor put in an error or event.
        public var headers: [String: String] = [:]

        public init() {}
    }

    /// The loader every item of the process shares by default.
    public static let shared = HTTPLoader()

    public let configuration: Configuration
    public var isPacedByClock: Bool { false }

    public func currentTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private enum Command {
        case start(CurlTransfer)
        case pause(CurlTransfer, Bool)
        case rate(CurlTransfer, Int64?)
        case cancel(CurlTransfer)
    }

    // Guarded by `lock`.
    private let lock = NSLock()
    private var commands: [Command] = []
    /// The multi handle, while the loader's thread runs (made with the thread, cleaned up when it ends); only that
    /// thread drives it, others only wake it.
    private var multi: MultiHandle?

    /// libcurl's multi handle. `@unchecked Sendable`: only the loader's thread drives it; `curl_multi_wakeup`, the
    /// one call other threads make, is documented as safe from any thread.
    private struct MultiHandle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public func start(_ request: TransferRequest, sink: any TransferSink) -> any TransferHandle {
        let transfer = CurlTransfer(request: request, sink: sink, loader: self)
        submit(.start(transfer))
        return transfer
    }

    // MARK: Commands (any thread)

    func setPaused(_ transfer: CurlTransfer, _ paused: Bool) { submit(.pause(transfer, paused)) }
    func setMaximumRate(_ transfer: CurlTransfer, _ rate: Int64?) { submit(.rate(transfer, rate)) }
    func cancel(_ transfer: CurlTransfer) { submit(.cancel(transfer)) }

    private func submit(_ command: Command) {
        lock.lock()
        defer { lock.unlock() }
        commands.append(command)
        if let multi {
            curl_multi_wakeup(multi.pointer)
            return
        }
        CurlGlobal.initialize()
        guard let pointer = curl_multi_init() else { return }
        _ = playctl_curl_multi_set_long(
            pointer, CURLMOPT_MAX_HOST_CONNECTIONS,
            configuration.maximumConnectionsPerHost)
        let made = MultiHandle(pointer: pointer)
        multi = made
        let thread = Thread { [self] in run(made.pointer) }
        thread.name = "playctl.http"
        thread.stackSize = 1 << 20
        thread.start()
    }

    // MARK: The loader's thread

    /// Transfers running (the loader's thread only).
    private var running: [ObjectIdentifier: CurlTransfer] = [:]
    /// The kernel's id of the loader's thread while it runs (guarded by `lock`).
    private var runningThreadID: pid_t?

    /// The kernel's id of the loader's thread while it runs, nil when none does: tests check that the thread
    /// ends when the loader goes idle.
    var threadID: pid_t? {
        lock.lock()
        defer { lock.unlock() }
        return runningThreadID
    }

    private func run(_ multi: UnsafeMutableRawPointer) {
        // Named here, through the kernel: on Linux, Foundation's Thread.name set before start is dropped (the
        // Thread has no system thread yet), and Thread.current.name set here is dropped too whenever the thread
        // runs before start() recorded it; the thread then kept the name of the thread that started it
        // (LoaderLeakTests found it in /proc/self/task/<id>/comm).
        Self.nameCurrentThread("playctl.http")
        lock.lock()
        runningThreadID = Self.currentThreadID()
        lock.unlock()
        var idleSince = Date()
        while true {
            lock.lock()
            let pending = commands
            commands.removeAll()
            if pending.isEmpty && running.isEmpty && Date().timeIntervalSince(idleSince) >= configuration.idleLifetime {
                self.multi = nil
                runningThreadID = nil
                lock.unlock()
                curl_multi_cleanup(multi)
                return
            }
            lock.unlock()
            for command in pending { apply(command, multi) }
            var stillRunning: Int32 = 0
            curl_multi_perform(multi, &stillRunning)
            collectFinished(multi)
            if !running.isEmpty { idleSince = Date() }
            curl_multi_poll(multi, nil, 0, running.isEmpty ? 1000 : 250, nil)
        }
    }

    /// Names the calling thread (at most 15 bytes), as `prctl(PR_SET_NAME)` does.
    private static func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY)
        guard descriptor >= 0 else { return }
        _ = name.withCString { write(descriptor, $0, min(strlen($0), 15)) }
        close(descriptor)
    }

    /// The calling thread's kernel id (`gettid`, which Glibc's module does not export), from /proc/thread-self.
    private static func currentThreadID() -> pid_t? {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.split(separator: "/").last.flatMap { pid_t($0) }
    }

    private func apply(_ command: Command, _ multi: UnsafeMutableRawPointer) {
        switch command {
        case .start(let transfer):
            guard !transfer.isCancelled else { return }
            guard transfer.prepare(configuration) else {
                transfer.finish(code: CURLE_FAILED_INIT)
                return
            }
            running[ObjectIdentifier(transfer)] = transfer
            curl_multi_add_handle(multi, transfer.easy)
        case .pause(let transfer, let paused):
            guard running[ObjectIdentifier(transfer)] != nil else { return }
            transfer.applyPause(paused)
        case .rate(let transfer, let rate):
            guard running[ObjectIdentifier(transfer)] != nil else { return }
            _ = playctl_curl_set_offset(transfer.easy, CURLOPT_MAX_RECV_SPEED_LARGE, curl_off_t(rate ?? 0))
        case .cancel(let transfer):
            guard running.removeValue(forKey: ObjectIdentifier(transfer)) != nil else { return }
            curl_multi_remove_handle(multi, transfer.easy)
            transfer.release()
        }
    }

    private func collectFinished(_ multi: UnsafeMutableRawPointer) {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            guard let transfer = running.values.first(where: { $0.easy == easy }) else { continue }
            running.removeValue(forKey: ObjectIdentifier(transfer))
            curl_multi_remove_handle(multi, easy)
            transfer.finish(code: code)
        }
    }
}

/// libcurl's process-wide initialization, done once before the first handle.
enum CurlGlobal {
    private static let done: Bool = {
        curl_global_init(Int(CURL_GLOBAL_ALL))
        return true
    }()

    static func initialize() { _ = done }
}

import CCurl
import Foundation
import Locking

/// The HTTP(S) transport: libcurl's multi interface on one thread of its own, shared by every transfer, so
/// connections are reused (keep-alive, HTTP/2 multiplexing) and transfers can be paused, resumed and capped.
///
/// Transfers' sinks are called on the loader's thread. A transfer's handle may be used from any thread: what it
/// asks is queued and done by the loader's thread, which libcurl requires. The thread and its multi handle (with
/// its cache of open connections) start with the first transfer and end after ``Configuration/idleLifetime``
/// seconds without one, so an idle process holds no thread, socket or descriptor of the loader's. Until then an
/// idle connection is kept for the next transfer to its server (at most ``Configuration/maximumIdleConnections``),
/// for that lifetime or as long as the server's `Keep-Alive: timeout` allows, whichever is shorter;
/// ``preconnect(_:headers:)`` opens one ahead of need.
public final class HTTPLoader: Transport, @unchecked Sendable {
    /// How transfers connect and when they give up.
    public struct Configuration: Sendable {
        /// Seconds to establish a connection (DNS, TCP, TLS) before failing with `.timedOut`.
        public var connectTimeout: Double = 10
        /// Seconds without a byte (while not paused) before a transfer fails with `.timedOut`.
        public var stallTimeout: Int = 15
        /// Connections to one host at most; further transfers wait for one.
        public var maximumConnectionsPerHost: Int = 6
        /// Seconds an idle connection is kept for the next transfer to its server (a feed's dwell on a cached item
        /// is often longer than 5 s, and a connection set up again costs the next swipe its DNS, TCP and TLS round
        /// trips); shortened for a server that says how long it keeps one (`Keep-Alive: timeout=N`, less a second).
        /// The loader's thread, and with it every connection, ends after this many seconds without a transfer.
        public var idleLifetime: Double = 60
        /// Idle connections kept at most (every server together; libcurl's `CURLMOPT_MAXCONNECTS`): beyond it the
        /// one idle longest is closed.
        public var maximumIdleConnections: Int = 16
        /// Seconds of silence on an idle connection before TCP probes it (`SO_KEEPALIVE`), so that a middlebox does
        /// not forget it and a dead peer is noticed; 0 for none.
        public var tcpKeepAliveIdle: Int = 30
        /// A PEM file of the certificate authorities to trust for HTTPS instead of the system's (libcurl's
        /// `CURLOPT_CAINFO`): a private deployment's own authority. Nil: the system's.
        public var certificateAuthorities: String?
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
    let lock = NSLock()
    private var commands: [Command] = []
    /// The servers transfers went to, while their connections may be kept (see HTTPLoader+Connections.swift).
    var origins: [HTTPOrigin: OriginUse] = [:]
    var counts = Statistics()
    /// The multi handle, while the loader's thread runs (made with the thread, cleaned up when it ends); only that
    /// thread drives it, others only wake it.
    var multi: MultiHandle?

    /// libcurl's multi handle. `@unchecked Sendable`: only the loader's thread drives it; `curl_multi_wakeup`, the
    /// one call other threads make, is documented as safe from any thread.
    struct MultiHandle: @unchecked Sendable {
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

    /// Queues `transfer`'s start (under `lock`).
    func submitStartLocked(_ transfer: CurlTransfer) { submitLocked(.start(transfer)) }

    private func submit(_ command: Command) {
        lock.lock()
        defer { lock.unlock() }
        submitLocked(command)
    }

    private func submitLocked(_ command: Command) {
        commands.append(command)
        if case .start(let transfer) = command { transferBeganLocked(transfer) }
        if let multi {
            curl_multi_wakeup(multi.pointer)
            return
        }
        CurlGlobal.initialize()
        guard let pointer = curl_multi_init() else { return }
        _ = playctl_curl_multi_set_long(
            pointer, CURLMOPT_MAX_HOST_CONNECTIONS,
            configuration.maximumConnectionsPerHost)
        _ = playctl_curl_multi_set_long(pointer, CURLMOPT_MAXCONNECTS, max(configuration.maximumIdleConnections, 1))
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
            if pending.isEmpty && running.isEmpty && Date().timeIntervalSince(idleSince) >= idleLifetimeLocked() {
                self.multi = nil
                origins.removeAll()
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
            guard !transfer.isCancelled else {
                transferEnded(transfer)
                return
            }
            guard transfer.prepare(configuration, keepAlive: keepAliveLimit(of: transfer.origin)) else {
                transferEnded(transfer)
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
            transferEnded(transfer)
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
            transferEnded(transfer)
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

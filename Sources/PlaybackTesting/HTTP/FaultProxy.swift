import Foundation
import Locking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A TCP proxy in front of a real server (the test nginx) that breaks connections the way networks do, for
/// tests of what a client does then: it forwards each connection to the server byte for byte, and can reset a
/// connection (a TCP RST) after some bytes of the server's response, or stop as a server stops (every connection
/// closed, new ones refused).
///
/// Each connection gets a thread of its own; ``stop()`` shuts every socket down and waits for the threads to end
/// (each closes its sockets), so a stopped proxy holds no descriptor and no thread.
public final class FaultProxy: Sendable {
    /// What happens to the server's bytes on one connection.
    public enum Fault: Sendable, Equatable {
        /// Forwarded whole.
        case none
        /// The connection is reset once this many bytes of the response went through.
        case resetAfter(Int)
    }

    /// The port it listens on (127.0.0.1).
    public let port: Int
    private let upstreamPort: Int
    private let listener: Int32
    private let faults: @Sendable (Int) -> Fault

    private struct State {
        var connections: [Int32] = []
        var accepted = 0
        var forwarded = 0
        var stopped = false
        var running = 0
    }

    private let state = Locked(State())
    private let done = NSCondition()

    /// A proxy on a free port of 127.0.0.1 to `upstreamPort` there; `faults(n)` says what happens to the `n`th
    /// connection (from 0).
    /// - Throws: `POSIXError` when it cannot listen.
    public init(upstreamPort: Int, faults: @escaping @Sendable (Int) -> Fault = { _ in .none }) throws {
        self.upstreamPort = upstreamPort
        self.faults = faults
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socket, 16) == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            close(socket)
            throw POSIXError(code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        listener = socket
        port = Int(UInt16(bigEndian: address.sin_port))
        spawn { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// Connections accepted so far.
    public var connectionsAccepted: Int { state.withLock { $0.accepted } }

    /// Bytes of the server's responses forwarded so far, over every connection.
    public var bytesForwarded: Int { state.withLock { $0.forwarded } }

    /// Stops as a server stops: the listening socket closes (new connections are refused) and every open
    /// connection is closed; returns once every thread of the proxy has ended.
    public func stop() {
        // Under the lock: a relay closes its sockets only after taking them out of the list, so none of these
        // numbers can have been reused by another descriptor of the process.
        let first = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            for socket in state.connections + [listener] { shutdown(socket, Int32(SHUT_RDWR)) }
            return true
        }
        done.lock()
        while state.withLock({ $0.running }) > 0 { _ = done.wait(until: Date(timeIntervalSinceNow: 0.05)) }
        done.unlock()
        if first { close(listener) }
    }

    // MARK: Threads

    private func spawn(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.running += 1 }
        let thread = Thread { [self] in
            body()
            done.lock()
            state.withLock { $0.running -= 1 }
            done.broadcast()
            done.unlock()
        }
        thread.name = "playctl.faultproxy"
        thread.start()
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let (number, stopped) = state.withLock { state -> (Int, Bool) in
                state.accepted += 1
                return (state.accepted - 1, state.stopped)
            }
            guard !stopped, let server = connectUpstream() else {
                close(client)
                if stopped { return }
                continue
            }
            let admitted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.connections += [client, server]
                return true
            }
            guard admitted else {
                close(client)
                close(server)
                return
            }
            let fault = faults(number)
            spawn { [self] in relay(client: client, server: server, fault: fault) }
        }
    }

    private func connectUpstream() -> Int32? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        var address = Self.loopback(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            return nil
        }
        return socket
    }

    /// Forwards between `client` and `server` in both directions until both ends closed (or the proxy stops);
    /// with a reset fault, resets the client once that many bytes of the server's went through. Closes both.
    private func relay(client: Int32, server: Int32, fault: Fault) {
        defer {
            state.withLock { $0.connections.removeAll { $0 == client || $0 == server } }
            close(client)
            close(server)
        }
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var forwarded = 0
        let limit: Int? = if case .resetAfter(let bytes) = fault { bytes } else { nil }
        var clientOpen = true
        var serverOpen = true
        while clientOpen || serverOpen {
            var fds = [
                pollfd(fd: clientOpen ? client : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: serverOpen ? server : -1, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&fds, 2, -1) >= 0 else {
                if errno == EINTR { continue }
                return
            }
            if state.withLock({ $0.stopped }) { return }
            for (index, from, to) in [(0, client, server), (1, server, client)] where fds[index].revents != 0 {
                var wanted = buffer.count
                if from == server, let limit { wanted = min(wanted, limit - forwarded) }
                if wanted <= 0 {
                    // SO_LINGER with a zero timeout: close() sends RST instead of FIN.
                    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                    setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                    return
                }
                let count = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress, wanted) }
                if count <= 0 {
                    shutdown(to, Int32(SHUT_WR))
                    if from == client { clientOpen = false } else { serverOpen = false }
                    continue
                }
                var sent = 0
                while sent < count {
                    let n = buffer.withUnsafeBytes {
                        send(to, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL))
                    }
                    guard n > 0 else { return }
                    sent += n
                }
                if from == server {
                    forwarded += count
                    state.withLock { $0.forwarded += count }
                }
                if from == server, let limit, forwarded >= limit {
                    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                    setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                    return
                }
            }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

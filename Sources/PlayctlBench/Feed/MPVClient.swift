import Dispatch
import Foundation
import Locking
import PlaybackTesting
import PlayctlOutput

#if canImport(Glibc)
import Glibc
#endif

/// A client of mpv's JSON IPC (`--input-ipc-server=PATH`, a Unix socket): sends commands and reads the messages
/// mpv writes (replies and events), each stamped with the monotonic time it was read.
///
/// Every call blocks: use it from a thread of its own, never from a task of Swift concurrency's pool. A thread of
/// the client's own reads the socket, so a message is stamped when it arrives, not when it is asked for.
public final class MPVClient: Sendable {
    /// One line mpv wrote, parsed, with the time it was read (`ProcessRunner.monotonicSeconds()`).
    public struct Message: Sendable {
        public var time: Double
        public var value: JSONValue

        /// The event's name (`playback-restart`, `start-file`, ...), or nil for a reply.
        public var event: String? { value["event"]?.stringValue }
    }

    private struct State {
        var messages: [Message] = []
        var closed = false
    }

    private let descriptor: Int32
    private let state = Locked(State())
    private let arrived = DispatchSemaphore(value: 0)
    private let readerDone = DispatchSemaphore(value: 0)

    /// Connects to the socket at `path`, trying again until mpv made it or `timeout` seconds passed.
    /// - Throws: `BenchFailure` when no connection was made in time.
    public init(path: String, timeout: Double = 10) throws(BenchFailure) {
        let deadline = ProcessRunner.monotonicSeconds() + timeout
        var lastError: Int32 = 0
        while true {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw .failed("cannot make a Unix socket for mpv's IPC (errno \(errno))") }
            if Self.connect(fd, to: path) {
                descriptor = fd
                break
            }
            lastError = errno
            close(fd)
            guard ProcessRunner.monotonicSeconds() < deadline else {
                throw .failed(
                    "mpv's IPC socket \(path) did not accept a connection in \(Int(timeout)) s (errno \(lastError))")
            }
            usleep(20_000)
        }
        let fd = descriptor
        Thread.detachNewThread { [state, arrived, readerDone] in
            Self.read(fd, into: state, arrived: arrived)
            readerDone.signal()
        }
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        readerDone.wait()
        close(descriptor)
    }

    /// Sends `command` (`["playlist-next"]`, `["playlist-play-index", 3]`) and returns the time just before it was
    /// written; false when the socket is closed.
    @discardableResult
    public func send(_ command: [JSONValue]) -> Double? {
        var bytes: [UInt8] = []
        JSONValue.object([("command", .array(command))]).appendSerialized(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        let time = ProcessRunner.monotonicSeconds()
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return nil }
            offset += written
        }
        return time
    }

    /// The next message, waiting for it until `deadline` (monotonic seconds); nil when none came by then or mpv
    /// closed the socket.
    public func next(until deadline: Double) -> Message? {
        while true {
            if let message = state.withLock({ $0.messages.isEmpty ? nil : $0.messages.removeFirst() }) {
                return message
            }
            if state.withLock({ $0.closed }) { return nil }
            let left = deadline - ProcessRunner.monotonicSeconds()
            guard left > 0 else { return nil }
            _ = arrived.wait(timeout: .now() + .nanoseconds(Int(left * 1e9)))
        }
    }

    /// Waits until `deadline` for an event named `name`, dropping the messages before it.
    public func wait(for name: String, until deadline: Double) -> Message? {
        while let message = next(until: deadline) {
            if message.event == name { return message }
        }
        return nil
    }

    // MARK: Socket

    private static func connect(_ fd: Int32, to path: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (offset, byte) in bytes.enumerated() { raw[offset] = byte }
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// Reads lines until the socket closes, parsing each (lines that do not parse are dropped).
    private static func read(_ fd: Int32, into state: Locked<State>, arrived: DispatchSemaphore) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            let time = ProcessRunner.monotonicSeconds()
            pending += chunk[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) else { continue }
                let value = JSONValue(foundation: object)
                state.withLock { $0.messages.append(Message(time: time, value: value)) }
                arrived.signal()
            }
        }
        state.withLock { $0.closed = true }
        arrived.signal()
    }
}

import PlayctlOutput

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered output to a file descriptor (standard output by default): lines collect in memory and go out together,
/// so printing one line per frame does not cost one system call per line, yet none waits long: the buffer is
/// written when it holds `capacity` bytes or when `interval` has passed since the last write (the first line goes
/// out at once), so a reader at the other end of a pipe (`| head`) sees lines as they come.
///
/// Used by one thread at a time. `flush()` must be called at the end; `PlayctlMain` does it after every command.
package final class StandardOutput {
    private let descriptor: Int32
    private let capacity: Int
    private let interval: UInt64
    private var buffer: [UInt8] = []
    private var lastWrite: UInt64 = 0

    /// A buffer in front of `descriptor` that writes whenever it holds `capacity` bytes or a line comes
    /// `intervalMilliseconds` after the last write.
    package init(descriptor: Int32 = STDOUT_FILENO, capacity: Int = 64 * 1024, intervalMilliseconds: UInt64 = 10) {
        self.descriptor = descriptor
        self.capacity = capacity
        interval = intervalMilliseconds * 1_000_000
        buffer.reserveCapacity(capacity + 256)
    }

    /// Appends `text` and a newline.
    package func line(_ text: String) throws(CommandFailure) {
        buffer += text.utf8
        buffer.append(UInt8(ascii: "\n"))
        try lineEnded()
    }

    /// Appends `value` as compact JSON and a newline.
    package func json(_ value: JSONValue) throws(CommandFailure) {
        value.appendSerialized(to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        try lineEnded()
    }

    private func lineEnded() throws(CommandFailure) {
        if buffer.count >= capacity || Self.monotonicNanoseconds() &- lastWrite >= interval { try flush() }
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Writes out everything buffered.
    package func flush() throws(CommandFailure) {
        guard !buffer.isEmpty else { return }
        let code = FileDescriptorIO.writeAll(buffer, to: descriptor)
        buffer.removeAll(keepingCapacity: true)
        lastWrite = Self.monotonicNanoseconds()
        if let code { throw .system(operation: "write to", path: "standard output", errno: code) }
    }
}

/// Files the commands write.
enum OutputFile {
    /// Creates (or truncates) the file at `path` and writes `bytes` to it.
    static func write(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .system(operation: "create", path: path, errno: errno) }
        let writeError = FileDescriptorIO.writeAll(bytes, to: descriptor)
        let closeFailed = close(descriptor) != 0
        let closeError = errno
        if let writeError { throw .system(operation: "write", path: path, errno: writeError) }
        if closeFailed { throw .system(operation: "write", path: path, errno: closeError) }
    }
}

import PlayctlOutput

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered output to a file descriptor (standard output by default): text collects in memory and goes out in
/// large `write(2)` calls, so printing one line per frame costs one system call per `capacity` bytes, not per line.
///
/// Used by one thread at a time. `flush()` must be called at the end; `PlayctlMain` does it after every command.
final class StandardOutput {
    private let descriptor: Int32
    private let capacity: Int
    private var buffer: [UInt8] = []

    /// A buffer in front of `descriptor` that writes whenever it holds `capacity` bytes.
    init(descriptor: Int32 = STDOUT_FILENO, capacity: Int = 64 * 1024) {
        self.descriptor = descriptor
        self.capacity = capacity
        buffer.reserveCapacity(capacity + 256)
    }

    /// Appends `text` and a newline.
    func line(_ text: String) throws(CommandFailure) {
        buffer += text.utf8
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= capacity { try flush() }
    }

    /// Appends `value` as compact JSON and a newline.
    func json(_ value: JSONValue) throws(CommandFailure) {
        value.appendSerialized(to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= capacity { try flush() }
    }

    /// Writes out everything buffered.
    func flush() throws(CommandFailure) {
        guard !buffer.isEmpty else { return }
        let code = FileDescriptorIO.writeAll(buffer, to: descriptor)
        buffer.removeAll(keepingCapacity: true)
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

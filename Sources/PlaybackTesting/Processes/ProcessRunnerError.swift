#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A system call the runner needed failed: `operation` on `path` with `errno`.
public struct ProcessRunnerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the runner was doing, worded to follow "cannot": `run`, `create a pipe for`, `wait for`.
    public var operation: String
    /// The executable.
    public var path: String
    /// The system's error number.
    public var errno: Int32

    /// An error for `operation` on `path`.
    public init(operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// `cannot run '/usr/bin/ffmpeg': No such file or directory`.
    public var description: String {
        "cannot \(operation) '\(path)': " + (strerror(errno).map { String(cString: $0) } ?? "error \(errno)")
    }
}

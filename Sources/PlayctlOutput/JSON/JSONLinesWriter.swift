import Locking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a `JSONLinesWriter` could not open its file or write a line.
public enum JSONLinesWriterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `open(2)` failed for `path` with `errno`.
    case cannotOpen(path: String, errno: Int32)
    /// `write(2)` failed with `errno` (`EPIPE` when the reader went away, unless SIGPIPE ended the process first).
    case writeFailed(errno: Int32)
    /// The writer was closed.
    case closed

    /// A one-line explanation, with the system's text for the error number.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let code): "cannot open '\(path)': \(Self.systemMessage(code))"
        case .writeFailed(let code): "write failed: \(Self.systemMessage(code))"
        case .closed: "the JSON Lines writer is closed"
        }
    }

    private static func systemMessage(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// Writes JSON values as JSON Lines: one compact JSON text per line, each line written whole and immediately.
///
/// Lines go straight to the file descriptor with `write(2)`, without buffering, so a reader sees every event as it
/// happens. The writer is safe to share between threads and tasks: each line is written under a lock, so lines
/// never interleave and appear in the order the `write` calls took the lock.
public final class JSONLinesWriter: Sendable {
    private enum Target {
        case descriptor(Int32, closesDescriptor: Bool, flushesStandardIO: Bool)
        case sink(@Sendable (String) -> Void)
    }

    private struct State {
        var target: Target
        var isClosed = false
    }

    private let state: Locked<State>

    /// A writer to an open file descriptor, which it closes on `close()` or deinit only if `closesDescriptor`.
    public init(fileDescriptor: Int32, closesDescriptor: Bool = false) {
        let target = Target.descriptor(fileDescriptor, closesDescriptor: closesDescriptor, flushesStandardIO: false)
        state = Locked(State(target: target))
    }

    /// A writer that hands each line, newline included, to `sink`, called under the writer's lock and in order.
    public init(sink: @escaping @Sendable (String) -> Void) {
        state = Locked(State(target: .sink(sink)))
    }

    /// A writer to a new file at `path` (created, or truncated if it exists), closed on `close()` or deinit.
    /// - Throws: `JSONLinesWriterError.cannotOpen` with the system's error number.
    public convenience init(creatingFileAt path: String) throws(JSONLinesWriterError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, errno: errno) }
        self.init(fileDescriptor: descriptor, closesDescriptor: true)
    }

    private init(standardOutput: Void) {
        state = Locked(State(target: .descriptor(STDOUT_FILENO, closesDescriptor: false, flushesStandardIO: true)))
    }

    /// A writer to standard output. Before each line it flushes C standard I/O buffers, so text printed with
    /// `print` earlier still appears before the line.
    public static func standardOutput() -> JSONLinesWriter {
        JSONLinesWriter(standardOutput: ())
    }

    deinit {
        close()
    }

    /// Writes `value` as one line.
    /// - Throws: `JSONLinesWriterError.writeFailed` when the system refuses the bytes, `.closed` after `close()`.
    public func write(_ value: JSONValue) throws(JSONLinesWriterError) {
        var bytes: [UInt8] = []
        value.appendSerialized(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        let result: Result<Void, JSONLinesWriterError> = state.withLock { state in
            guard !state.isClosed else { return .failure(.closed) }
            switch state.target {
            case .sink(let sink):
                sink(String(decoding: bytes, as: UTF8.self))
                return .success(())
            case .descriptor(let descriptor, _, let flushesStandardIO):
                if flushesStandardIO { fflush(nil) }
                if let code = FileDescriptorIO.writeAll(bytes, to: descriptor) {
                    return .failure(.writeFailed(errno: code))
                }
                return .success(())
            }
        }
        try result.get()
    }

    /// Stops writing; closes the descriptor if the writer owns it. Later writes throw `.closed`. Idempotent.
    public func close() {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.isClosed = true
            if case .descriptor(let descriptor, closesDescriptor: true, _) = state.target {
                systemClose(descriptor)
            }
        }
    }
}

// A file-scope wrapper: inside the class, `close` names its own method.

private func systemClose(_ descriptor: Int32) {
    _ = close(descriptor)
}

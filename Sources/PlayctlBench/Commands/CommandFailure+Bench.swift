import CommandLineKit
import PlayctlCLI

extension CommandFailure {
    /// The failure of a benchmark, worded as playctl's other failures are.
    init(_ failure: BenchFailure) {
        switch failure {
        case .media(let error): self = .media(error)
        case .process(let error): self = .system(operation: error.operation, path: error.path, errno: error.errno)
        case .notAFrameCount(let commandLine, let output):
            self = .other("'\(commandLine)' printed \(UsageError.quote(output)), not a frame count")
        case .failed(let message): self = .other(message)
        }
    }
}

/// Runs a step of a benchmark, turning its `BenchFailure` into a `CommandFailure`.
func benchStep<T>(_ body: () throws(BenchFailure) -> T) throws(CommandFailure) -> T {
    do {
        return try body()
    } catch {
        throw CommandFailure(error)
    }
}

/// Runs a benchmark's async work to its report on a task of its own and waits for it; its failure becomes the
/// command's.
func benchReport<R: Sendable>(
    _ work: @escaping @Sendable () async throws(BenchFailure) -> R
) throws(CommandFailure) -> R {
    try benchStep { () throws(BenchFailure) in try AsyncWork.wait(work) }
}

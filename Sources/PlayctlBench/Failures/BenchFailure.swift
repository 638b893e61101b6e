import MediaCore
import PlaybackTesting

/// Why a benchmark or soak could not run or finish. It says what failed; the CLI words it for the user.
public enum BenchFailure: Error, Sendable {
    /// The media layer failed on a file; its description names the file and gives FFmpeg's reason.
    case media(MediaError)
    /// A program could not be spawned or waited for.
    case process(ProcessRunnerError)
    /// `commandLine` printed `output` where it should have printed a frame count.
    case notAFrameCount(commandLine: String, output: String)
    /// Any other failure, already worded for the user (one sentence, no trailing period).
    case failed(String)
}

/// Runs a media-layer call, turning its `MediaError` into a `BenchFailure`.
func media<T>(_ body: () throws(MediaError) -> T) throws(BenchFailure) -> T {
    do {
        return try body()
    } catch {
        throw .media(error)
    }
}

/// Runs a process call, turning its `ProcessRunnerError` into a `BenchFailure`.
func process<T>(_ body: () throws(ProcessRunnerError) -> T) throws(BenchFailure) -> T {
    do {
        return try body()
    } catch {
        throw .process(error)
    }
}

import Foundation

/// The real PulseAudio daemon the audio tests play to: a private one with a null sink (`playctl_sink`), started by
/// `scripts/pulse.sh` (scripts/test.sh and CI run the suite inside `scripts/pulse.sh run`). Tests read where it is
/// from `PULSE_SERVER`, as libpulse does.
public enum PulseServer {
    /// The null sink `scripts/pulse.sh` makes (48 kHz, stereo, float), the server's default.
    public static let sink = "playctl_sink"
    /// A second null sink of the same daemon, not the default: for the one test that records what reaches it and
    /// compares it sample for sample (the suites run in parallel, and the others play to the default meanwhile).
    public static let exactSink = "playctl_exact"

    /// `unix:/path/native` when a server was started for the tests, else nil.
    public static var address: String? { ProcessInfo.processInfo.environment["PULSE_SERVER"] }

    /// Why the audio tests cannot run here, said so that the failure explains itself: they fail rather than skip,
    /// so a CI run without the daemon is red, not silently thinner.
    public static let missingReason =
        "no PulseAudio server for the audio tests (PULSE_SERVER is not set): run the tests through scripts/test.sh, "
        + "or `scripts/pulse.sh run swift test ...` (needs pulseaudio and pulseaudio-utils: scripts/setup.sh)"

    /// A private daemon of a test's own (one it may kill): started with `scripts/pulse.sh start` in `directory`.
    public struct Private: Sendable {
        public let directory: URL
        /// Its `PULSE_SERVER` value.
        public let address: String

        /// Starts one.
        /// - Throws: `ProcessRunnerError`, or `PulseServer.Failure` when the script fails.
        public static func start(in directory: URL) async throws -> Private {
            let result = try await ProcessRunner.run(
                "/bin/bash", [Repository.path("scripts/pulse.sh"), "start", directory.path], standardOutput: .capture,
                standardError: .capture, timeout: 20)
            guard result.succeeded, let line = result.outputText.split(separator: "\n").last,
                line.hasPrefix("PULSE_SERVER=")
            else { throw Failure(message: "scripts/pulse.sh start failed: \(result.errorText)") }
            return Private(directory: directory, address: String(line.dropFirst("PULSE_SERVER=".count)))
        }

        /// The daemon's process id (its pid file).
        public var pid: Int32? {
            let file = directory.appendingPathComponent("xdg/pulse/pid")
            return (try? String(contentsOf: file, encoding: .utf8)).flatMap {
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }

        /// Stops it (`scripts/pulse.sh stop`).
        public func stop() async {
            _ = try? await ProcessRunner.run(
                "/bin/bash", [Repository.path("scripts/pulse.sh"), "stop", directory.path], timeout: 10)
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public init(message: String) { self.message = message }
        public var description: String { message }
    }

    /// Records `seconds` of what reaches `sink`'s monitor on the server at `address` (`parec`, 48 kHz stereo float),
    /// as interleaved samples. Starts at once; the recording begins when the server starts the stream.
    /// - Throws: `ProcessRunnerError`, or `PulseServer.Failure` when parec fails.
    public static func record(seconds: Double, from address: String, sink: String = sink) async throws -> [Float] {
        guard let parec = ProcessRunner.findExecutable("parec") else {
            throw Failure(message: "parec is not installed (pulseaudio-utils: scripts/setup.sh)")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = address
        let result = try await ProcessRunner.run(
            parec,
            [
                "--raw", "--device=\(sink).monitor", "--format=float32le", "--rate=48000", "--channels=2",
                "--latency-msec=20",
            ], standardOutput: .capture, standardError: .capture, environment: environment, timeout: seconds)
        guard result.timedOut || result.succeeded else {
            throw Failure(message: "parec failed: \(result.errorText)")
        }
        let count = result.output.count / 4
        return result.output.withUnsafeBytes { bytes in
            (0..<count).map { Float(bitPattern: bytes.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)) }
        }
    }
}

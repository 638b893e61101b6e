import PlaybackTesting
import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

/// The repository's clips as file URLs.
enum Clips {
    static func url(_ name: String) -> URL { URL(fileURLWithPath: MediaFixtures.path(name)) }
}

/// Runs `scenario` `runs` times, each on a fresh clock, and expects the same trace every time; returns it.
func deterministicTrace(
    runs: Int = 3, sourceLocation: SourceLocation = #_sourceLocation,
    isolation: isolated (any Actor)? = #isolation,
    _ scenario: (ClockDriver, TraceRecorder) async throws -> Void
) async throws -> String {
    var traces: [String] = []
    for _ in 0..<runs {
        let driver = ClockDriver()
        let recorder = TraceRecorder(driver: driver)
        recorder.recordNotifications()
        try await driver.run { try await scenario(driver, recorder) }
        traces.append(recorder.trace)
    }
    for (index, trace) in traces.enumerated().dropFirst() {
        let difference = traceDifference(traces[0], trace)
        #expect(
            difference.isEmpty, "run \(index + 1) differs from run 1:\n\(difference)", sourceLocation: sourceLocation)
    }
    return traces[0]
}

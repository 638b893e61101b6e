import Foundation
import PlaybackTesting
import Testing

/// libpulse is loaded only when a player asks for the PulseAudio output (`--audio pulse`): headless runs start
/// without it. The dynamic loader's own log (`LD_DEBUG=files`, on standard error) tells which libraries a process
/// loaded.
@Suite("libpulse is loaded only for --audio pulse")
struct PulseLoadingCLITests {
    static func loadedPulse(_ arguments: [String]) async throws -> (loaded: Bool, result: CLIProcess.Result) {
        var environment = ProcessInfo.processInfo.environment
        environment["LD_DEBUG"] = "files"
        let result = try await CLIProcess.run(arguments, environment: environment)
        return (result.standardError.contains("file=libpulse.so"), result)
    }

    @Test("a headless play never loads it; --audio pulse does, and plays through the server")
    func loadedOnlyWhenAsked() async throws {
        let headless = try await Self.loadedPulse(["play", MediaFixtures.path("a.mp4"), "--until", "0.5", "--json"])
        #expect(headless.result.status == 0)
        #expect(!headless.loaded)
        guard PulseServer.address != nil else { throw PulseServer.Failure(message: PulseServer.missingReason) }
        let pulse = try await Self.loadedPulse([
            "play", MediaFixtures.path("a.mp4"), "--audio", "pulse", "--until", "0.5", "--json",
        ])
        #expect(pulse.result.status == 0)
        #expect(pulse.loaded)
        #expect(pulse.result.standardOutput.contains(#""event":"player.audioOutput","#))
    }
}

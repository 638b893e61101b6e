import Foundation
import PlaybackTesting
import Testing

/// libavfilter is loaded only when a filter graph is needed (audio at a rate other than 1): every other process
/// starts without it and its thirty-odd dependencies (time and resident memory). The dynamic loader's own log
/// (`LD_DEBUG=files`, on standard error) tells which libraries a process loaded.
@Suite("libavfilter is loaded only for a rate change")
struct FilterLoadingCLITests {
    static func loadedFilterLibrary(_ arguments: [String]) async throws -> (loaded: Bool, status: Int32) {
        var environment = ProcessInfo.processInfo.environment
        environment["LD_DEBUG"] = "files"
        let result = try await CLIProcess.run(arguments, environment: environment)
        return (result.standardError.contains("file=libavfilter.so"), result.status)
    }

    @Test("playing at rate 1 and showing a frame never load it")
    func notLoadedAtRateOne() async throws {
        let play = try await Self.loadedFilterLibrary([
            "play", MediaFixtures.path("a.mp4"), "--untimed", "--until", "1", "--json",
        ])
        #expect(play.status == 0)
        #expect(!play.loaded)
        let frame = try await Self.loadedFilterLibrary(["frame", MediaFixtures.path("a.mp4"), "--at", "1", "--md5"])
        #expect(frame.status == 0)
        #expect(!frame.loaded)
    }

    @Test("playing at rate 2 loads it, and plays")
    func loadedForARateChange() async throws {
        let play = try await Self.loadedFilterLibrary([
            "play", MediaFixtures.path("a.mp4"), "--untimed", "--until", "1",
            "--rate", "2", "--json",
        ])
        #expect(play.status == 0)
        #expect(play.loaded)
    }
}

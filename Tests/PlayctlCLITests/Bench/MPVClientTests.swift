import Foundation
import PlaybackTesting
import Testing

@testable import PlayctlBench

/// mpv's JSON IPC as `bench --feed` drives it, against the real mpv (skipped, loudly, where it is not installed).
@Suite("mpv's IPC client")
struct MPVClientTests {
    static var mpv: String? {
        let path = ProcessRunner.findExecutable("mpv")
        if path == nil { print("WARNING: mpv is not installed: the mpv IPC tests are skipped") }
        return path
    }

    @Test(
        "a playlist of two clips: playlist-next starts the second and a playback-restart follows",
        .enabled(if: mpv != nil, "needs mpv"))
    func playlistNext() throws {
        let socket = "/tmp/playctl-test-mpv-\(getpid()).sock"
        let process = try BackgroundProcess(
            Self.mpv!,
            MPVReplay.options(prefetch: false) + [
                "--input-ipc-server=" + socket, MediaFixtures.path("a.mp4"), MediaFixtures.path("b.mp4"),
            ])
        defer {
            process.terminate()
            _ = try? process.wait(timeout: 5)
        }
        let client = try MPVClient(path: socket)
        let opened = client.wait(for: "playback-restart", until: ProcessRunner.monotonicSeconds() + 20)
        #expect(opened != nil, "the first clip shows")
        let sent = try #require(client.send(["playlist-next"]))
        let start = try #require(client.wait(for: "start-file", until: sent + 10))
        #expect(start.value["playlist_entry_id"]?.intValue == 2)
        let restart = try #require(client.wait(for: "playback-restart", until: sent + 10))
        #expect(restart.time >= sent && restart.time - sent < 5)
        client.send(["quit"])
        let result = try process.wait(timeout: 10)
        #expect(result.exitStatus == 0)
    }

    @Test("a replay times every swipe of a trace, forward, back and to an index", .enabled(if: mpv != nil, "needs mpv"))
    func replay() throws {
        let files = ["a.mp4", "b.mp4", "still.jpg", "a.mp4"].map(MediaFixtures.path)
        // 1.5 s a swipe: time for mpv to show each item on a loaded machine (the suite runs beside it).
        var trace = SwipeTrace(seed: 1, swipes: 0, items: files.count, dwell: .fixed(1.5))
        trace.steps += [1, 2, 1, 3, 0].map { SwipeTrace.Swipe(index: $0, dwell: 1.5) }
        let run = try MPVReplay.run(mpv: Self.mpv!, urls: files, prefetch: true, trace: trace)
        #expect(run.name == "mpv --prefetch-playlist=yes")
        #expect(run.swipes.map(\.index) == [1, 2, 1, 3, 0])
        for swipe in run.swipes {
            let latency = try #require(swipe.latency, "swipe to \(swipe.index) showed a frame")
            #expect(latency > 0 && latency < 1.5)
        }
    }
}

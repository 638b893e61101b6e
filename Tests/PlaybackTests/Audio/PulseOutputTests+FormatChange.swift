import Foundation
import MediaIO
import Playback
import PlaybackTesting
import Testing

extension PulseOutputTests {
    /// a.mp4's audio is 48 kHz stereo (the format of the stream made at connection), b.mp4's 44.1 kHz: the item
    /// change makes a stream, one round trip to the server. The daemon is stopped (SIGSTOP) just before, so that
    /// round trip takes its whole 2 s and fails: the engine's lock must not be held meanwhile.
    @Test("a new audio format at an item change: the stream is made with the engine's lock released")
    func newFormatStreamOutsideTheLock() async throws {
        _ = try PulseSupport.server()
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let daemon = try await PulseServer.Private.start(in: directory.appendingPathComponent("pulse"))
        guard let pid = daemon.pid else { throw PulseServer.Failure(message: "the daemon wrote no pid file") }
        defer { kill(pid, SIGKILL) }
        let items = ["a.mp4", "b.mp4"].map { PlayerItem(url: MediaFixtures.path($0)) }
        let player = QueuePlayer(items: items, clock: .host, audioOutput: .pulse(sink: nil, server: daemon.address))
        defer { player.invalidate() }
        let log = EventLog(player)
        #expect(try await log.wait(timeout: 5) { $0 == .audioOutput("pulse", error: nil) })
        // Played from the start (no seek first: in CI's ThreadSanitizer pass a seek before the first play took
        // 156 s and reported false).
        player.play()
        // Watched from a thread of its own, every 2 ms: from a task, a sleep on a loaded cooperative pool (CI's
        // ThreadSanitizer pass) overslept the half second between 5.5 s and the item's end.
        let watched = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            Thread.detachNewThread {
                let started = ProcessRunner.monotonicSeconds()
                while player.currentTime().seconds < 5.5, player.currentItem === items[0] {
                    guard ProcessRunner.monotonicSeconds() - started < 30 else {
                        return continuation.resume(returning: "a.mp4's playhead stayed before 5.5 s")
                    }
                    usleep(2000)
                }
                guard player.currentItem === items[0] else {
                    return continuation.resume(returning: "b.mp4 came before the daemon was stopped")
                }
                kill(pid, SIGSTOP)
                continuation.resume(returning: nil)
            }
        }
        if let watched { throw PulseServer.Failure(message: watched) }
        // Read the playhead as an app's progress bar does until the failed stream is reported: every read is
        // answered at once (it took the whole 2 s wait while the engine made the stream under its lock).
        let stopped = ProcessRunner.monotonicSeconds()
        var slowest = 0.0
        var reads = 0
        while !log.contains({ if case .audioOutput("null", .some) = $0 { true } else { false } }),
            ProcessRunner.monotonicSeconds() - stopped < 10
        {
            let before = ProcessRunner.monotonicSeconds()
            _ = player.currentTime()
            slowest = max(slowest, ProcessRunner.monotonicSeconds() - before)
            reads += 1
            try await Task.sleep(for: .milliseconds(5))
        }
        let reported = ProcessRunner.monotonicSeconds() - stopped
        print("new format with the daemon stopped: reported after \(reported) s, \(reads) reads, slowest \(slowest) s")
        let error = log.audioOutputs.last { $0.0 == "null" }?.1
        #expect(error?.contains("no answer in 2 s") == true, "\(log.audioOutputs)")
        #expect(player.audioDeviceError?.kind == .deviceUnavailable)
        #expect(player.currentItem === items[1])
        // Under a sanitizer a read may wait for a slow pass; the 2 s wait is what this would show.
        #expect(slowest < (Sanitizers.isActive ? 1.0 : 0.5), "a read of the playhead took \(slowest) s")
        // b.mp4 plays on, on the null device and the host clock.
        let changed = ProcessRunner.monotonicSeconds()
        while log.all.filter({ $0.kind == .didPlayToEnd }).count < 2, ProcessRunner.monotonicSeconds() - changed < 8 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(log.all.filter { $0.kind == .didPlayToEnd }.count == 2, "b.mp4 did not play to its end")
    }
}

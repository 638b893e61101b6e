import Foundation
import PlaybackTesting
import PlayctlOutput

#if canImport(Glibc)
import Glibc
#endif

/// Replays a swipe trace through mpv: the feed's URLs as its playlist, a swipe as `playlist-next` (`playlist-prev`
/// back, `playlist-play-index N` to any other item) sent over its JSON IPC, and the latency from writing the command
/// to the `playback-restart` event that follows the item's `start-file`.
///
/// mpv runs as `mpv --no-config --vo=null --ao=null --idle=yes --loop-file=inf --image-display-duration=inf
/// --prefetch-playlist=yes|no --input-ipc-server=SOCKET URL...`: no user configuration, video and audio decoded and
/// dropped, each item looping (as the feed's active item does) and images staying on screen until the next swipe.
enum MPVReplay {
    /// The options before the socket and the URLs.
    static func options(prefetch: Bool) -> [String] {
        [
            "--no-config", "--vo=null", "--ao=null", "--idle=yes", "--loop-file=inf", "--image-display-duration=inf",
            "--prefetch-playlist=" + (prefetch ? "yes" : "no"),
        ]
    }

    /// The run's name in reports.
    static func name(prefetch: Bool) -> String { "mpv --prefetch-playlist=" + (prefetch ? "yes" : "no") }

    /// Starts mpv on `urls`, waits for the opening item's first `playback-restart` (the user starts watching then),
    /// swipes at the trace's times, then quits mpv. Blocks: call it from a thread of its own.
    /// - Throws: `BenchFailure` when mpv cannot be started, its socket does not answer, or it fails.
    static func run(mpv: String, urls: [String], prefetch: Bool, trace: SwipeTrace) throws(BenchFailure) -> SwipeRun {
        let socket = "/tmp/playctl-bench-mpv-\(getpid())-\(prefetch ? "yes" : "no").sock"
        unlink(socket)
        defer { unlink(socket) }
        let started = ProcessRunner.monotonicSeconds()
        let arguments = options(prefetch: prefetch) + ["--input-ipc-server=" + socket] + urls
        let mpvProcess = try process { () throws(ProcessRunnerError) in try BackgroundProcess(mpv, arguments) }
        var run = SwipeRun(name: name(prefetch: prefetch))
        do throws(BenchFailure) {
            let client = try MPVClient(path: socket)
            guard client.wait(for: "playback-restart", until: ProcessRunner.monotonicSeconds() + 30) != nil else {
                throw .failed("mpv showed nothing of \(urls[trace.steps[0].index]) in 30 s")
            }
            var next = ProcessRunner.monotonicSeconds() + trace.steps[0].dwell
            var current = trace.steps[0].index
            for step in trace.steps.dropFirst() {
                sleep(until: next)
                let command: [JSONValue]
                if step.index == current + 1 {
                    command = ["playlist-next"]
                } else if step.index == current - 1 {
                    command = ["playlist-prev"]
                } else {
                    command = ["playlist-play-index", .int(step.index)]
                }
                guard let sent = client.send(command) else { throw .failed("mpv closed its IPC socket") }
                next = sent + step.dwell
                current = step.index
                run.swipes.append(latency(client, sent: sent, until: next, index: step.index, dwell: step.dwell))
            }
            sleep(until: next)
            client.send(["quit"])
        } catch {
            mpvProcess.terminate()
            _ = try? mpvProcess.wait(timeout: 5)
            throw error
        }
        let result = try process { () throws(ProcessRunnerError) in try mpvProcess.wait(timeout: 10) }
        run.seconds = ProcessRunner.monotonicSeconds() - started
        guard result.succeeded else {
            throw .failed("mpv ended with status \(result.exitStatus ?? -1) (signal \(result.signal ?? 0))")
        }
        return run
    }

    /// The swipe's latency: the `playback-restart` after the next `start-file`, if it comes before `deadline`.
    private static func latency(
        _ client: MPVClient, sent: Double, until deadline: Double, index: Int, dwell: Double
    ) -> SwipeRun.Swipe {
        var swipe = SwipeRun.Swipe(index: index, latency: nil, prepared: false, dwell: dwell)
        guard client.wait(for: "start-file", until: deadline) != nil,
            let restart = client.wait(for: "playback-restart", until: deadline)
        else { return swipe }
        swipe.latency = restart.time - sent
        // What remains of the dwell: events of this item (loops) are dropped.
        while client.next(until: deadline) != nil {}
        return swipe
    }

    private static func sleep(until time: Double) {
        let left = time - ProcessRunner.monotonicSeconds()
        if left > 0 { usleep(useconds_t(left * 1e6)) }
    }
}

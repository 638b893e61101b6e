import PlaybackTesting
import Testing

@Suite("A process left running (PlaybackTesting's BackgroundProcess)")
struct BackgroundProcessTests {
    @Test func runsUntilToldToEnd() throws {
        let sleep = try #require(ProcessRunner.findExecutable("sleep"))
        let process = try BackgroundProcess(sleep, ["30"])
        process.terminate()
        let result = try process.wait()
        // Ended by SIGTERM, so before `sleep 30` would have ended by itself.
        #expect(result.signal == 15, "ended by SIGTERM")
        #expect(!result.timedOut)
        // Reaped once: the same result again, and no signal to a pid that may be another process's now.
        process.terminate()
        #expect(try process.wait().signal == 15)
    }

    @Test func endsByItselfOrAtItsTimeout() throws {
        let shell = try #require(ProcessRunner.findExecutable("sh"))
        let quick = try BackgroundProcess(shell, ["-c", "exit 4"])
        #expect(try quick.wait(timeout: 30).exitStatus == 4)
        let slow = try BackgroundProcess(shell, ["-c", "sleep 30"])
        let result = try slow.wait(timeout: 0.2)
        #expect(result.timedOut)
        #expect(result.signal == 15, "ended by SIGTERM at its timeout, not by `sleep 30` finishing")
    }
}

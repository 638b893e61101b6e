import PlaybackTesting
import Testing

@Suite("Spawning processes (PlaybackTesting's ProcessRunner)")
struct ProcessRunnerTests {
    @Test func statusOutputAndMemory() throws {
        let shell = try #require(ProcessRunner.findExecutable("sh"))
        let echo = try ProcessRunner.run(shell, ["-c", "echo hello; echo oops >&2"], standardOutput: .capture)
        #expect(echo.succeeded)
        #expect(echo.outputText == "hello\n")
        #expect(echo.errorOutput.isEmpty, "standard error is discarded unless captured")
        #expect(echo.peakRSSKiB > 0)
        #expect(echo.wallSeconds > 0)
        #expect(echo.cpuSeconds >= 0 && echo.cpuSeconds < 10)
        let failing = try ProcessRunner.run(shell, ["-c", "exit 3"])
        #expect(failing.exitStatus == 3)
        #expect(failing.signal == nil)
        #expect(failing.shellStatus == 3)
        let killed = try ProcessRunner.run(shell, ["-c", "kill -9 $$"])
        #expect(killed.exitStatus == nil)
        #expect(killed.signal == 9)
        #expect(killed.shellStatus == 137)
        #expect(ProcessRunner.findExecutable("no-such-tool-\(UInt32.random(in: 0...UInt32.max))") == nil)
    }

    @Test func bothStreamsAreCapturedWhateverTheirSize() throws {
        let shell = try #require(ProcessRunner.findExecutable("sh"))
        // More than a pipe holds on each stream, written alternately: reading one stream only would deadlock.
        let script = "i=0; while [ $i -lt 2000 ]; do echo out$i; echo err$i >&2; i=$((i+1)); done"
        let result = try ProcessRunner.run(shell, ["-c", script], standardOutput: .capture, standardError: .capture)
        #expect(result.succeeded)
        #expect(result.outputText.split(separator: "\n").count == 2000)
        #expect(result.errorText.split(separator: "\n").last == "err1999")
    }

    @Test func environmentReplacesThisProcesss() throws {
        let shell = try #require(ProcessRunner.findExecutable("sh"))
        let result = try ProcessRunner.run(
            shell, ["-c", "echo \"$ONLY\" \"${HOME:-unset}\""], standardOutput: .capture, environment: ["ONLY": "x"])
        #expect(result.outputText == "x unset\n")
    }

    @Test func aTimeoutEndsTheProcess() async throws {
        let shell = try #require(ProcessRunner.findExecutable("sh"))
        let slow = try await ProcessRunner.run(
            shell, ["-c", "echo started; exec sleep 30"], standardOutput: .capture,
            timeout: 0.3)
        #expect(slow.timedOut)
        #expect(slow.signal == 15, "SIGTERM ends sleep")
        #expect(slow.outputText == "started\n")
        // Ended by the runner's SIGTERM, not by `sleep 30` finishing: no wall-clock bound needed to tell.
        #expect(slow.wallSeconds >= 0.3, "not before its timeout")
        let quick = try await ProcessRunner.run(shell, ["-c", "exit 0"], timeout: 30)
        #expect(!quick.timedOut && quick.succeeded)
    }

    @Test func aMissingProgramIsAnError() {
        #expect(throws: ProcessRunnerError(operation: "run", path: "/no/such/program", errno: 2)) {
            try ProcessRunner.run("/no/such/program", [])
        }
        let error = ProcessRunnerError(operation: "run", path: "/no/such/program", errno: 2)
        #expect(error.description == "cannot run '/no/such/program': No such file or directory")
    }
}

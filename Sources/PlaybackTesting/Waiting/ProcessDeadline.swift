import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The exit code of a process that ran past its deadline (``exitProcess(ifStillRunningAfter:_:)``), as `timeout(1)`'s.
public let processDeadlineExitCode: Int32 = 124

/// For a process of a test's own (an exit test's child, `#expect(processExitsWith:)`): if the process still runs
/// after `timeout`, writes `what` to standard error and ends the process at once with
/// ``processDeadlineExitCode``, so the waiting parent fails instead of waiting for good. A hang detector, not a
/// judgement of speed: generous, so a saturated machine never trips it.
public func exitProcess(ifStillRunningAfter timeout: Duration, _ what: String) {
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    let message = "no end of \(what) within \(timeout): ended with exit code \(processDeadlineExitCode)\n"
    let thread = Thread {
        Thread.sleep(forTimeInterval: seconds)
        FileHandle.standardError.write(Data(message.utf8))
        // Not exit(): its handlers might wait for the hung work.
        _exit(processDeadlineExitCode)
    }
    thread.name = "playctl.test.deadline"
    thread.start()
}

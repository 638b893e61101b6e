import Foundation
import Locking
import PlaybackTesting

/// Waits until scripts/netns.sh's shaped loopback carries nothing before a timed run, so that no run starts behind
/// bytes the previous one left queued.
///
/// When a client exits mid-transfer, the bytes the server already sent stay in the link's queue (tc's HTB class of
/// the port) and still drain at the link's rate: after a first-frame run at 2 Mbit/s that is 100-170 KB, about half
/// a second that the next run would otherwise spend behind them. So each run waits until `tc -s class show dev lo`
/// reports no backlog, then for the class's token bucket (32 KB of burst) to refill at the slowest rate timed.
/// A link that stays busy (another process uses it) is waited for at most ``timeoutSeconds``; the report says how
/// often that happened.
final class LinkQuiet: Sendable {
    /// `tc`, when the loopback is shaped and tc is installed.
    let tc: String?
    private let timeouts = Locked(0)

    init(tc: String?) {
        self.tc = tc
    }

    /// Waits that ended because the link stayed busy.
    var busyWaits: Int { timeouts.withLock { $0 } }

    /// Seconds waited after the queues emptied: the 32 KB burst refills in 131 ms at 2 Mbit/s.
    static let settleSeconds = 0.15
    /// Seconds between two looks at the queues, and the most spent waiting for them to empty.
    static let pollSeconds = 0.02
    static let timeoutSeconds = 5.0

    /// The waiter for this link: polls tc when the loopback is shaped, otherwise only settles.
    static func find(shaped: Bool) -> LinkQuiet {
        guard shaped else { return LinkQuiet(tc: nil) }
        let tc = ProcessRunner.findExecutable("tc") ?? ["/usr/sbin/tc", "/sbin/tc"].first { access($0, X_OK) == 0 }
        return LinkQuiet(tc: tc)
    }

    /// Blocks until no class of the loopback has a backlog (or the timeout), then settles.
    func wait() {
        if let tc {
            let start = ProcessRunner.monotonicSeconds()
            while true {
                guard
                    let result = try? ProcessRunner.run(
                        tc, ["-s", "class", "show", "dev", "lo"], standardOutput: .capture),
                    result.succeeded
                else { break }
                if Self.isIdle(result.outputText) { break }
                if ProcessRunner.monotonicSeconds() - start >= Self.timeoutSeconds {
                    timeouts.withLock { $0 += 1 }
                    break
                }
                usleep(useconds_t(Self.pollSeconds * 1e6))
            }
        }
        usleep(useconds_t(Self.settleSeconds * 1e6))
    }

    /// Whether every `backlog` line of `tc -s class show` output says `backlog 0b 0p`.
    static func isIdle(_ statistics: String) -> Bool {
        !statistics.split(separator: "\n").contains { line in
            let trimmed = line.drop { $0 == " " }
            return trimmed.hasPrefix("backlog ") && !trimmed.hasPrefix("backlog 0b 0p")
        }
    }
}

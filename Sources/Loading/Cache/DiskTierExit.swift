import Foundation
import Locking

/// Finishes every disk tier's queued writes when the process exits normally (a command-line tool returning from
/// its main, or calling `exit`): what the cache took is on disk for the next run.
enum DiskTierExit {
    private struct Entry: @unchecked Sendable { weak var tier: DiskTier? }
    private static let tiers = Locked<[Entry]>([])
    private static let installed = Locked(false)

    static func register(_ tier: DiskTier) {
        tiers.withLock { list in
            list.removeAll { $0.tier == nil }
            list.append(Entry(tier: tier))
        }
        let first = installed.withLock { done in
            defer { done = true }
            return !done
        }
        if first { atexit { DiskTierExit.flushAll() } }
    }

    static func flushAll() {
        for entry in tiers.withLock({ $0 }) { entry.tier?.flush() }
    }
}

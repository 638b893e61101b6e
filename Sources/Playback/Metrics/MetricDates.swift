import Foundation
import Locking

/// How metric events get their `date`: an epoch per player (per manual clock under a manual clock) plus clock time.
enum MetricDates {
    private struct ClockEpoch {
        weak var clock: ManualClock?
        let epoch: Date
    }

    private static let manualEpochs = Locked<[ClockEpoch]>([])

    /// The date at clock time 0 of a player on `clock` created at host time `origin`.
    static func epoch(for clock: ClockMode, origin: Double) -> Date {
        switch clock {
        case .host:
            return Date(timeIntervalSinceNow: -(HostTime.now() - origin))
        case .untimed:
            return Date()
        case .manual(let manual):
            // Every player on one manual clock shares one epoch, so their dates compare as the clock's times do.
            return manualEpochs.withLock { epochs in
                epochs.removeAll { $0.clock == nil }
                if let known = epochs.first(where: { $0.clock === manual }) { return known.epoch }
                let epoch = Date(timeIntervalSinceNow: -manual.now.seconds)
                epochs.append(ClockEpoch(clock: manual, epoch: epoch))
                return epoch
            }
        }
    }
}

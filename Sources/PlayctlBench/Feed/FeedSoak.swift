import Feed
import Playback
import PlaybackTesting

#if canImport(Glibc)
import Glibc
import PlayctlCLI
#endif

/// `bench --feed`'s soak: one feed (the default configuration, audio on) scrolled through many short swipes over
/// the simulated network at 8 Mbit/s under a manual clock (real players and decoding, virtual time), with the
/// process's resources watched: resident memory after every swipe (free heap handed back first, glibc's malloc
/// arenas capped at 2 as `playctl soak` does, and its mmap threshold fixed at 128 KB: blocks from a 1080p frame's
/// planes to the byte cache's chunks are mapped on their own and go back to the system when freed, as a feed app
/// would set it; see `ProcessResources.fixMmapThreshold`), its peak, and file descriptors and threads before the feed
/// was made and after it ended.
struct FeedSoak: Sendable {
    /// Swipes, and how long each item stays: 0.2 to 0.8 s (median 0.4 s), long enough for the prepared item and
    /// the prefetches to move.
    var swipes: Int
    var seed: UInt64
    static let dwell = SwipeTrace.Dwell.around(median: 0.4, spread: 1)
    static let bytesPerSecond = 1_000_000

    /// Runs it; the first 30% of the swipes are the warm-up (``FeedSoakReport/warmUp``).
    func run(media: FeedMedia) async -> FeedSoakReport {
        let started = ProcessRunner.monotonicSeconds()
        ProcessResources.limitMallocArenas(to: 2)
        ProcessResources.fixMmapThreshold(at: 128 << 10)
        var report = FeedSoakReport(swipes: swipes)
        report.start = await SoakRun.quiescent(reference: nil)
        let trace = SwipeTrace(seed: seed, swipes: swipes, items: media.files.count, dwell: Self.dwell)
        let (run, resident) = await scroll(trace, media: media)
        report.resident = resident
        report.summary = run.summary
        report.failures = run.failures
        report.end = await SoakRun.quiescent(reference: report.start)
        report.peakResidentBytes = Self.peakResidentBytes()
        report.seconds = ProcessRunner.monotonicSeconds() - started
        return report
    }

    /// Replays `trace` on a new feed, reading resident memory after each swipe, and ends the feed (released on
    /// return, so that its threads can go).
    private func scroll(_ trace: SwipeTrace, media: FeedMedia) async -> (SwipeRun, [Int]) {
        let simulation = FeedSimulation(
            media: media, bytesPerSecond: Self.bytesPerSecond, latency: 0.05, configuration: FeedConfiguration())
        var resident: [Int] = []
        let run = await simulation.replay(trace) { _ in
            ProcessMemory.releaseFreeMemory()
            resident.append(ProcessMemory.residentBytes())
        }
        await simulation.stop()
        return (run, resident)
    }

    /// The highest resident memory of the process so far (`ru_maxrss`), in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}

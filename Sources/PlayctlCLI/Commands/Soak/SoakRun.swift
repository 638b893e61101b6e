import MediaIO
import Playback
import Synchronization
import PlayctlOutput

#if canImport(Glibc)
import Glibc
#endif

/// One soak: a single player under a manual clock takes `swaps` new items (cycling through the clips) and makes
/// `seeks` seeks (random targets, exact or to a keyframe, from a fixed seed), with the clock moved a little after
/// each step so frames are presented. Resources are measured at the start, after the warm-up (the first 10% of the
/// steps, and at least one pass over the clips) and at the end, each time with no item in the player, its decoding threads gone and free heap memory
/// handed back; after the end the player is invalidated and descriptors and threads must be back where they started.
/// glibc's malloc arenas are capped at 2 first (see `ProcessResources.limitMallocArenas`).
struct SoakRun {
    let clips: [String]
    let swaps: Int
    let seeks: Int
    let seed: UInt64

    /// Seconds without a completed step after which the soak reports a hang and exits.
    static let hangSeconds = 30

    func run() async -> SoakReport {
        var report = SoakReport(swaps: swaps, seeks: seeks, clips: clips.count)
        let started = ContinuousClock.now
        let progress = SoakProgress()
        let watchdog = Self.startWatchdog(progress)
        defer { watchdog.cancel() }
        ProcessResources.limitMallocArenas(to: 2)
        report.start = await Self.quiescent(reference: nil)
        let clock = ManualClock()
        let player = Player(clock: .manual(clock), audio: true)
        player.play()
        var random = SoakRandom(seed: seed)
        let steps = max(swaps, seeks)
        // The first 10% of the steps, and at least one pass over every clip (first uses set up codec tables).
        let warmUp = min(steps, max(steps / 10, clips.count))
        for step in 0..<steps {
            if step == warmUp { report.warmUp = await Self.checkpoint(player, clock) }
            if step < swaps {
                let item = PlayerItem(url: clips[step % clips.count])
                player.replaceCurrentItem(with: item)
                await clock.advance(by: .zero)
                if item.status != .readyToPlay {
                    report.itemFailures.append(item.error.map { $0.description } ?? "\(item.url): not ready")
                }
            }
            if step < seeks { await seek(player, &random, &report) }
            await clock.advance(by: MediaTime(value: Int64(random.next() % 100), timescale: 1000))
            progress.completeStep()
        }
        report.end = await Self.checkpoint(player, clock)
        if warmUp == steps { report.warmUp = report.end }
        player.invalidate()
        report.afterInvalidate = await Self.quiescent(reference: report.start)
        report.peakResidentBytes = Self.peakResidentBytes()
        report.seconds = (ContinuousClock.now - started) / .seconds(1)
        return report
    }

    /// Seeks the current item to a random point of it (sometimes past either end), exactly or to a keyframe.
    private func seek(_ player: Player, _ random: inout SoakRandom, _ report: inout SoakReport) async {
        let duration = player.currentItem?.duration ?? .indefinite
        let span = duration.isNumeric ? duration.seconds : 1
        let fraction = Double(random.next() % 1200) / 1000 - 0.1
        let exact = random.next() % 2 == 0
        let tolerance: MediaTime = exact ? .zero : .positiveInfinity
        let finished = await player.seek(to: MediaTime(seconds: span * fraction), toleranceBefore: tolerance,
                                         toleranceAfter: tolerance)
        if finished { report.seeksFinished += 1 } else { report.seeksNotFinished += 1 }
    }

    /// Empties the player (its item's decoding stops), lets it settle, and measures.
    private static func checkpoint(_ player: Player, _ clock: ManualClock) async -> ProcessResources {
        player.replaceCurrentItem(with: nil)
        await clock.advance(by: .zero)
        return await quiescent(reference: nil)
    }

    /// Waits until no decoding thread is left and descriptors and threads match `reference` (when given) or stop
    /// changing, up to 3 s; then hands free heap memory back and measures.
    private static func quiescent(reference: ProcessResources?) async -> ProcessResources {
        var previous = ProcessResources.current()
        for _ in 0..<60 {
            try? await Task.sleep(for: .milliseconds(50))
            let now = ProcessResources.current()
            let decoding = now.threadNames.keys.contains { $0.hasPrefix("playctl.video") || $0.hasPrefix("playctl.audio") }
            let settled: Bool
            if let reference {
                settled = now.fileDescriptors == reference.fileDescriptors && now.threads <= reference.threads
            } else {
                settled = now.fileDescriptors == previous.fileDescriptors && now.threads == previous.threads
            }
            if settled && !decoding { break }
            previous = now
        }
        ProcessResources.releaseFreeMemory()
        return ProcessResources.current()
    }

    /// The highest resident memory of the process so far (`ru_maxrss`), in bytes.
    private static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    /// A thread that ends the process when no step completes for `hangSeconds`: a hang is a failure, not a wait.
    private static func startWatchdog(_ progress: SoakProgress) -> Task<Void, Never> {
        Task.detached {
            var last = -1
            var still = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                let now = progress.steps
                still = now == last ? still + 1 : 0
                last = now
                if still >= hangSeconds {
                    let line = "playctl: error: soak: no progress for \(hangSeconds) s at step \(now) (a hang)\n"
                    _ = FileDescriptorIO.writeAll(Array(line.utf8), to: STDERR_FILENO)
                    exit(PlayctlMain.failureExitCode)
                }
            }
        }
    }
}

/// Steps completed so far, read by the watchdog.
final class SoakProgress: Sendable {
    private let count = Atomic<Int>(0)

    var steps: Int { count.load(ordering: .relaxed) }

    func completeStep() { count.add(1, ordering: .relaxed) }
}

/// SplitMix64: the soak's seeded generator, so a run can be repeated exactly.
struct SoakRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

import MediaIO
import Playback

#if canImport(Glibc)
import Glibc
#endif

/// One soak: a single player under a manual clock takes `swaps` new items (cycling through the clips) and makes
/// `seeks` seeks (random targets, exact or to a keyframe, from a fixed seed), with the clock moved a little after
/// each step so frames are presented. Resources are measured at the start, after the warm-up (the first 10% of the
/// steps, and at least one pass over the clips), every eighth of the steps after it and at the end, each time with
/// no item in the player, its decoding threads gone and free heap memory handed back; after the end the player is
/// invalidated and descriptors and threads must be back where they started. The growth compares the least resident
/// memory of the second half of those checkpoints with the least of the first half (``SoakReport/residentGrowth``).
/// glibc's malloc arenas are capped at 2 first and its mmap threshold fixed at 128 KB (see
/// `ProcessResources.limitMallocArenas` and `fixMmapThreshold`): with the default threshold, freed frame buffers stayed
/// in the heap, and the growth of 200-step soaks varied from -0.3 to +1.8 MB from run to run on the same code (a
/// 2.1 MB one failed its bound beside the test suite); with 128 KB, 0.4-0.8 MB, and 0.4 MB over 1000 steps.
package struct SoakRun: Sendable {
    /// The clips to swap between, cycled through in order.
    package let clips: [String]
    /// Items to swap in.
    package let swaps: Int
    /// Seeks to make.
    package let seeks: Int
    /// The generator's seed: the same seed makes the same steps.
    package let seed: UInt64
    /// Called from the watchdog, with a sentence saying so, when no step completes for `hangSeconds`; it must end
    /// the process (a hang is a failure, not a wait), which the soak cannot do from where it is stuck.
    package let onHang: @Sendable (String) -> Void
    /// Where the steps are shown as they complete (nowhere by default).
    package var progressLine = ProgressLine(shown: false)

    /// Seconds without a completed step after which the soak reports a hang.
    package static let hangSeconds = 30

    /// A soak over `clips`; see the type's description.
    package init(clips: [String], swaps: Int, seeks: Int, seed: UInt64, onHang: @escaping @Sendable (String) -> Void) {
        self.clips = clips
        self.swaps = swaps
        self.seeks = seeks
        self.seed = seed
        self.onHang = onHang
    }

    /// The media files in `directory` that open with a decodable stream, sorted by name; at least two.
    /// - Throws: `CommandFailure` when there are fewer than two.
    package static func clips(in directory: String) throws(CommandFailure) -> [String] {
        let extensions: Set<String> = ["mp4", "m4a", "mov", "webm", "mkv", "ts"]
        let names = DirectoryListing.names(in: directory) ?? []
        let candidates = names.filter { extensions.contains(String($0.split(separator: ".").last ?? "")) }.sorted()
        let clips = candidates.map { directory + "/" + $0 }.filter { (try? Demuxer(url: $0)) != nil }
        guard clips.count >= 2 else {
            throw CommandFailure("soak needs at least two playable clips in '\(directory)' (found \(clips.count))")
        }
        return clips
    }

    /// Runs the soak and measures; the report says whether it passed.
    package func run() async -> SoakReport {
        var report = SoakReport(swaps: swaps, seeks: seeks, clips: clips.count)
        let started = ContinuousClock.now
        let progress = SoakProgress()
        let watchdog = Self.startWatchdog(progress, onHang: onHang)
        defer { watchdog.cancel() }
        ProcessResources.limitMallocArenas(to: 2)
        ProcessResources.fixMmapThreshold(at: 128 << 10)
        report.start = await Self.quiescent(reference: nil)
        let clock = ManualClock()
        let player = Player(clock: .manual(clock), audio: true)
        player.play()
        var random = SeededGenerator(seed: seed)
        let steps = max(swaps, seeks)
        // The first 10% of the steps, and at least one pass over every clip (first uses set up codec tables).
        let warmUp = min(steps, max(steps / 10, clips.count))
        // Resident memory is read at the end of the warm-up, every eighth of the steps after it, and at the end.
        let every = max((steps - warmUp) / 8, 1)
        for step in 0..<steps {
            if step >= warmUp && (step - warmUp) % every == 0 {
                let resources = await Self.checkpoint(player, clock)
                if step == warmUp { report.warmUp = resources }
                report.checkpoints.append(resources.residentBytes)
            }
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
            progressLine.update("soak: step", done: step + 1, total: steps)
        }
        progressLine.clear()
        report.end = await Self.checkpoint(player, clock)
        report.checkpoints.append(report.end.residentBytes)
        if warmUp == steps { report.warmUp = report.end }
        player.invalidate()
        report.afterInvalidate = await Self.quiescent(reference: report.start)
        report.peakResidentBytes = Self.peakResidentBytes()
        report.seconds = (ContinuousClock.now - started) / .seconds(1)
        return report
    }

    /// Seeks the current item to a random point of it (sometimes past either end), exactly or to a keyframe.
    private func seek(_ player: Player, _ random: inout SeededGenerator, _ report: inout SoakReport) async {
        let duration = player.currentItem?.duration ?? .indefinite
        let span = duration.isNumeric ? duration.seconds : 1
        let fraction = Double(random.next() % 1200) / 1000 - 0.1
        let exact = random.next() % 2 == 0
        let tolerance: MediaTime = exact ? .zero : .positiveInfinity
        let finished = await player.seek(
            to: MediaTime(seconds: span * fraction), toleranceBefore: tolerance,
            toleranceAfter: tolerance)
        if finished { report.seeksFinished += 1 } else { report.seeksNotFinished += 1 }
    }

    /// Empties the player (its item's decoding stops), lets it settle, and measures.
    private static func checkpoint(_ player: Player, _ clock: ManualClock) async -> ProcessResources {
        player.replaceCurrentItem(with: nil)
        await clock.advance(by: .zero)
        return await quiescent(reference: nil)
    }

    /// Waits until no decoding thread is left and descriptors and threads match `reference` (when given: up to 30 s,
    /// as a loaded machine's idle dispatch workers take seconds to go, which is no leak) or stop changing (up to
    /// 3 s); then hands free heap memory back and measures.
    package static func quiescent(reference: ProcessResources?) async -> ProcessResources {
        var previous = ProcessResources.current()
        for _ in 0..<(reference == nil ? 60 : 600) {
            try? await Task.sleep(for: .milliseconds(50))
            let now = ProcessResources.current()
            let decoding = now.threadNames.keys.contains {
                $0.hasPrefix("playctl.video") || $0.hasPrefix("playctl.audio")
            }
            let settled: Bool
            if let reference {
                settled = now.fileDescriptors == reference.fileDescriptors && now.threads <= reference.threads
            } else {
                settled = now.fileDescriptors == previous.fileDescriptors && now.threads == previous.threads
            }
            if settled && !decoding { break }
            previous = now
        }
        ProcessMemory.releaseFreeMemory()
        return ProcessResources.current()
    }

    /// The highest resident memory of the process so far (`ru_maxrss`), in bytes.
    private static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    /// A task that calls `onHang` when no step completes for `hangSeconds`.
    private static func startWatchdog(
        _ progress: SoakProgress, onHang: @escaping @Sendable (String) -> Void
    ) -> Task<Void, Never> {
        Task.detached {
            var last = -1
            var still = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                let now = progress.steps
                still = now == last ? still + 1 : 0
                last = now
                if still >= hangSeconds {
                    onHang("soak: no progress for \(hangSeconds) s at step \(now) (a hang)")
                }
            }
        }
    }
}

import Dispatch
import Locking
import MediaIO
import Playback

#if canImport(Glibc)
import Glibc
#endif

/// `playctl play FILE ...`: plays a file through the engine and reports what the player does, as a readable log,
/// a live status line in a terminal, or JSON Lines with `--json`. Exits 0 at the end of the item, at `--until` or
/// once `--frames` frames were shown, 1 when the item fails.
extension PlayCommand: PlayctlCommand {
    func run(_ output: StandardOutput) throws(CommandFailure) {
        try output.flush()
        let outcome = Locked<Result<Void, CommandFailure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let options = self.options
        let scenario = pictureInPicture
        // `--timeline`: keeps the printed events for the picture drawn at the end.
        let recorder = timelinePath.map { _ in TimelineRecorder() }
        Task.detached {
            let result =
                if let scenario {
                    await scenario.run(timeline: recorder)
                } else {
                    await PlaySession(options: options, timeline: recorder).run()
                }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        try outcome.withLock { $0 }!.get()
        if let timelinePath, let recorder {
            try recorder.write(to: timelinePath, title: "playctl play " + ReportCommand.fileName(path))
        }
    }
}

/// One run of `playctl play`: the player, the printer, and the scheduled actions.
final class PlaySession: Sendable {
    let options: PlayOptions
    let printer: EventPrinter

    /// `timeline` keeps every printed event for `--timeline`.
    init(options: PlayOptions, timeline: TimelineRecorder?) {
        self.options = options
        self.printer = EventPrinter(json: options.json, metricsPath: options.metricsPath, timeline: timeline)
    }

    func run() async -> Result<Void, CommandFailure> {
        let item: PlayerItem
        do throws(CommandFailure) {
            item = try MediaLocation(
                options.path, cache: options.cache, headers: options.headers, decryptionKey: options.decryptionKey,
                limits: options.limits.abrLimits
            ).item()
        } catch {
            return .failure(error)
        }
        let output: AudioOutput = options.audioOutput == .pulse ? .pulse(sink: options.audioDevice) : .null
        let player = Player(clock: options.untimed ? .untimed : .host, audio: options.audio, audioOutput: output)
        defer { player.invalidate() }
        options.applyMediaSelection(to: player, item: item)
        // Player and metric events in one order; a large buffer, as the loop below may wait on a seek.
        let records = player.eventsAndMetrics(bufferLimit: 1 << 16)
        player.defaultRate = options.rate
        item.audioTimePitchAlgorithm =
            switch options.timePitch {
            case .timeDomain: .timeDomain
            case .spectral: .spectral
            case .varispeed: .varispeed
            }
        // --seek SEC@AT and --until on one timeline: seconds since playback started, on the player's clock.
        let schedule = RunSchedule()
        let untilReached = Locked(false)
        for seek in options.seeks {
            guard let at = seek.at else { continue }
            schedule.add(at: at) { [weak player] in
                player?.seek(to: MediaTime(seconds: seek.to), toleranceBefore: .zero, toleranceAfter: .zero) { _ in }
            }
        }
        for drag in options.scrubs { scheduleScrub(drag, player: player, on: schedule) }
        if let until = options.until {
            // Ends the run there, whether the media time reached anything or jumped (the summary still comes).
            schedule.add(at: until) { [weak player] in
                untilReached.withLock { $0 = true }
                player?.pause()
                player?.invalidate()
            }
        }
        defer { schedule.stop() }
        if let frames = options.frames {
            // Counted where frames are shown (on the callback executor); the N-th ends the run as --until does.
            let shown = Locked(0)
            player.add(
                VideoSink { [weak player] _ in
                    let count = shown.withLock {
                        $0 += 1
                        return $0
                    }
                    if count == frames { player?.invalidate() }
                })
        }
        if !printer.json && printer.isTerminal {
            _ = player.addPeriodicTimeObserver(forInterval: MediaTime(seconds: 0.1)) { _ in }
        }
        let initialSeeks = options.seeks.filter { $0.at == nil }.map { MediaTime(seconds: $0.to) }
        if !initialSeeks.isEmpty {
            // Seeks without a time are made once the item is ready, one after the other, and then playback starts.
            // Asked for on the callback executor, in the order of the events (the untimed clock waits for it before
            // it shows a frame), so the run is the same every time.
            let asked = Locked(false)
            player.observeEvents { [weak player, self] event in
                guard let player, case .itemStatus(.readyToPlay, _, _) = event.kind else { return }
                let first = asked.withLock { asked in
                    defer { asked = true }
                    return !asked
                }
                guard first else { return }
                self.seek(player, through: initialSeeks[...], thenStart: schedule)
            }
        }
        player.replaceCurrentItem(with: item)
        if initialSeeks.isEmpty {
            player.play()
            schedule.start(following: player, untimed: options.untimed)
        }
        var failure: CommandFailure?
        var ending = false
        for await record in records {
            // Once ending, the player is invalidated and its stream drained for the last summary.
            if ending {
                if case .metric(let metric) = record, metric is PlaybackSummaryEvent {
                    printer.print(metric, player: player)
                }
                continue
            }
            printer.print(record, player: player)
            guard case .event(let event) = record else { continue }
            switch event.kind {
            case .itemStatus(.failed, _, let error):
                failure = CommandFailure(error ?? "\(options.path): the item failed")
                ending = true
            case .failedToPlayToEnd(let error):
                failure = CommandFailure(error)
                ending = true
            case .didPlayToEnd:
                ending = true
            default:
                break
            }
            if ending { player.invalidate() }
        }
        let stats = player.statistics
        printer.summary(
            player: player, item: item, framesRendered: stats.framesRendered, framesDropped: stats.framesDropped)
        if let failure { return .failure(failure) }
        return .success(())
    }

    /// Schedules `drag` on `schedule`: the drag begins at its time, 60 positions follow evenly over its duration,
    /// and it ends then; metric.scrub is printed once its exact frame landed.
    private func scheduleScrub(_ drag: PlayOptions.ScheduledScrub, player: Player, on schedule: RunSchedule) {
        let count = PlayOptions.ScheduledScrub.positions
        for index in 0..<count {
            let fraction = Double(index) / Double(count - 1)
            let position = MediaTime(seconds: drag.from + (drag.to - drag.from) * fraction)
            schedule.add(at: drag.at + drag.duration * fraction) { [weak player] in
                if index == 0 { player?.beginScrubbing() }
                player?.scrub(to: position)
            }
        }
        schedule.add(at: drag.at + drag.duration) { [weak player, printer] in
            guard let player else { return }
            Task {
                let statistics = await player.endScrubbing()
                printer.scrub(statistics, player: player)
            }
        }
    }

    /// Seeks `player` to each of `targets` in turn (each once the one before completed), then plays and starts
    /// `schedule`. Called on the player's callback executor, and goes on from the seeks' completion handlers there.
    private func seek(_ player: Player, through targets: ArraySlice<MediaTime>, thenStart schedule: RunSchedule) {
        guard let target = targets.first else {
            player.play()
            schedule.start(following: player, untimed: options.untimed)
            return
        }
        player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero) { [weak player, self] _ in
            guard let player else { return }
            self.seek(player, through: targets.dropFirst(), thenStart: schedule)
        }
    }
}

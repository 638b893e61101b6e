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
        Task.detached {
            let result = if let scenario { await scenario.run() } else { await PlaySession(options: options).run() }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        try outcome.withLock { $0 }!.get()
    }
}

/// One run of `playctl play`: the player, the printer, and the scheduled actions.
final class PlaySession: Sendable {
    let options: PlayOptions
    let printer: EventPrinter

    init(options: PlayOptions) {
        self.options = options
        self.printer = EventPrinter(json: options.json, metricsPath: options.metricsPath)
    }

    func run() async -> Result<Void, CommandFailure> {
        let item: PlayerItem
        do throws(CommandFailure) {
            item = try MediaLocation(options.path, cache: options.cache, decryptionKey: options.decryptionKey).item()
        } catch {
            return .failure(error)
        }
        let player = Player(clock: options.untimed ? .untimed : .host, audio: options.audio)
        defer { player.invalidate() }
        // Player and metric events in one order; a large buffer, as the loop below may wait on a seek.
        let records = player.eventsAndMetrics(bufferLimit: 1 << 16)
        player.defaultRate = options.rate
        if let until = options.until {
            // Stops the clock right at --until (on the engine thread), however long the event loop takes to see it.
            _ = player.addBoundaryTimeObserver(forTimes: [MediaTime(seconds: until)]) { [weak player] _ in
                player?.pause()
            }
        }
        // Each `--seek SEC@AT` is asked for from its boundary observer, on the engine thread at the moment the
        // media time crosses AT (so even an untimed run seeks from exactly there); each fires once.
        for seek in options.seeks {
            guard let at = seek.at else { continue }
            let fired = OneShot()
            _ = player.addBoundaryTimeObserver(forTimes: [MediaTime(seconds: at)]) { [weak player] _ in
                guard let player, fired.fire() else { return }
                player.seek(to: MediaTime(seconds: seek.to), toleranceBefore: .zero, toleranceAfter: .zero) { _ in }
            }
        }
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
        player.replaceCurrentItem(with: item)
        let initialSeeks = options.seeks.filter { $0.at == nil }
        if initialSeeks.isEmpty { player.play() }
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
            case .itemStatus(.readyToPlay, _, _) where !initialSeeks.isEmpty:
                for seek in initialSeeks {
                    _ = await player.seek(
                        to: MediaTime(seconds: seek.to), toleranceBefore: .zero, toleranceAfter: .zero)
                }
                player.play()
            case .itemStatus(.failed, _, let error):
                failure = CommandFailure(error ?? "\(options.path): the item failed")
                ending = true
            case .failedToPlayToEnd(let error):
                failure = CommandFailure(error)
                ending = true
            case .didPlayToEnd:
                ending = true
            case .boundaryTime(let mark):
                if let until = options.until, mark == MediaTime(seconds: until) { ending = true }
            default:
                break
            }
            if ending { player.invalidate() }
        }
        let stats = player.statistics
        printer.summary(player: player, framesRendered: stats.framesRendered, framesDropped: stats.framesDropped)
        if let failure { return .failure(failure) }
        return .success(())
    }
}

/// True the first time `fire()` is called, false after.
final class OneShot: Sendable {
    private let fired = Locked(false)
    func fire() -> Bool {
        fired.withLock { was in
            defer { was = true }
            return !was
        }
    }
}

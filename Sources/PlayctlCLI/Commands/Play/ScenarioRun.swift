import Foundation
import Locking
import MediaIO
import PictureInPicture
import Playback

extension PictureInPictureScenario {
    /// Runs the scenario to its end; fails when an item fails or Picture in Picture cannot start.
    func run(timeline: TimelineRecorder?) async -> Result<Void, CommandFailure> {
        let run = ScenarioRun(scenario: self, timeline: timeline)
        return await run.execute()
    }
}

/// The state of one scenario run: the clock, the players, the controller and the ordered log of events.
final class ScenarioRun: @unchecked Sendable {
    let scenario: PictureInPictureScenario
    let clock = ManualClock()
    let system: SimulatedPictureInPictureSystem
    let log = ScenarioLog()
    let step = MediaTime(value: 4, timescale: 600)
    let wallStart = Date()

    init(scenario: PictureInPictureScenario, timeline: TimelineRecorder?) {
        self.scenario = scenario
        system = SimulatedPictureInPictureSystem(profile: .iOS, clock: .manual(clock))
        log.json = scenario.options.json
        log.timeline = timeline
    }

    func execute() async -> Result<Void, CommandFailure> {
        let options = scenario.options
        let first: PlayerItem
        let location: MediaLocation
        do throws(CommandFailure) {
            location = try MediaLocation(
                options.path, cache: options.cache, headers: options.headers, decryptionKey: options.decryptionKey,
                limits: options.limits.abrLimits)
            first = location.item()
        } catch {
            return .failure(error)
        }
        var player = Player(clock: .manual(clock), audio: options.audio)
        var players = [player]
        defer { for p in players { p.invalidate() } }
        log.observe(player, clock: clock)
        let layer = PlayerLayer(player: player)
        player.defaultRate = options.rate
        options.applyMediaSelection(to: player, item: first)
        player.replaceCurrentItem(with: first)
        player.play()
        let controller = PictureInPictureController(playerLayer: layer, system: system)
        let current = CurrentPlayer(player)
        log.observe(controller, clock: clock) { current.player }
        await advance(by: .zero)
        // --swap-at counts seconds since playback started on the scenario's clock, as every scheduled time does.
        let started = clock.now.seconds
        var window: PictureInPictureWindow?
        var swapped = scenario.swapPath == nil
        let swapAt = scenario.swapAt ?? min(2, (first.duration.isNumeric ? first.duration.seconds : 4) / 2)
        while !log.finished(afterSwap: swapped) {
            if let error = log.failure { return .failure(CommandFailure(error)) }
            if scenario.pip, window == nil, layer.isReadyForDisplay, controller.phase == .idle {
                do throws(PictureInPictureError) {
                    try controller.startPictureInPicture()
                } catch {
                    return .failure(CommandFailure("picture in picture: \(error)"))
                }
                await controller.callbacksDelivered()
                await player.callbacksDelivered()
                log.flush()
            }
            if window == nil { window = system.window(for: controller) }
            if !swapped, let swapPath = scenario.swapPath, clock.now.seconds - started >= swapAt - 1e-9 {
                swapped = true
                log.swapDone = true
                let item = location.loading.map { PlayerItem(url: swapPath, loading: $0) } ?? PlayerItem(url: swapPath)
                // The same variant limits as the first item (--max-bitrate, --max-resolution).
                item.preferredPeakBitRate = first.preferredPeakBitRate
                item.preferredMaximumResolution = first.preferredMaximumResolution
                switch scenario.swapMode {
                case .item:
                    player.replaceCurrentItem(with: item)
                case .source:
                    do {
                        // The new player is logged from its first event, and PiP lines report its time from the
                        // swap on (it is what the window shows).
                        let prepared = try await controller.swapContentSource(
                            to: item, clock: .manual(clock), audio: options.audio
                        ) { [log, clock] made in
                            log.observe(made, clock: clock)
                            current.player = made
                        }
                        player = prepared.player
                        players.append(player)
                    } catch {
                        return .failure(CommandFailure("\(swapPath): cannot prepare the new content source: \(error)"))
                    }
                }
                await controller.callbacksDelivered()
                for made in players { await made.callbacksDelivered() }
                log.flush()
            }
            await advance(by: step)
        }
        if let error = log.failure { return .failure(CommandFailure(error)) }
        let framesInWindow = window?.framesShown ?? 0
        if let window, controller.isPictureInPictureActive {
            if scenario.restore { window.restore() } else { window.close() }
            await advance(by: .zero)
            await advance(by: step)
        }
        controller.invalidate()
        await controller.callbacksDelivered()
        log.flush()
        let stats = players.reduce((0, 0)) { ($0.0 + $1.statistics.framesRendered, $0.1 + $1.statistics.framesDropped) }
        log.summary(
            clock: clock.now.seconds, time: player.currentTime(), framesRendered: stats.0, framesDropped: stats.1,
            pipFramesRendered: framesInWindow)
        return .success(())
    }

    /// Advances the clock, prints what happened, and (unless untimed) waits for real time to catch up.
    private func advance(by interval: MediaTime) async {
        await clock.advance(by: interval)
        log.flush()
        guard !scenario.options.untimed else { return }
        let ahead = clock.now.seconds - Date().timeIntervalSince(wallStart)
        if ahead > 0.001 { try? await Task.sleep(for: .milliseconds(Int(ahead * 1000))) }
    }
}

/// The player whose time PiP events report (it changes on a source swap).
final class CurrentPlayer: Sendable {
    private let state: Locked<Player>
    init(_ player: Player) { state = Locked(player) }
    var player: Player {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}

import Foundation
import Locking
import MediaIO
import PictureInPicture
import Playback
import PlaybackTesting
import Testing

/// Clock steps. Every time in these tests uses timescale 600, which holds 1/25 s and 1/30 s exactly
/// (`MediaTime` addition rounds to the larger timescale, so mixing scales would drift).
enum Ticks {
    /// 1/150 s: every frame time of a.mp4 (30 fps) and b.mp4 (25 fps) falls on a step.
    static let fine = MediaTime(value: 4, timescale: 600)

    static func seconds(_ s: Double) -> MediaTime { MediaTime(value: Int64((s * 600).rounded()), timescale: 600) }

    /// Advances `clock` by `total` in fine steps, so frames are shown (and timestamped) at their own times.
    static func play(_ clock: ManualClock, for total: Double) async {
        for _ in 0..<Int((total * 150).rounded()) { await clock.advance(by: fine) }
    }
}

/// Records delegate callbacks as controller events, and answers restore requests by a policy.
final class RecordingDelegate: PictureInPictureControllerDelegate {
    enum RestorePolicy: Sendable {
        case complete(Bool)
        case never
    }

    private struct State {
        var log: [PictureInPictureControllerEvent] = []
        var policy: RestorePolicy = .complete(true)
        var pending: [@Sendable (Bool) -> Void] = []
    }
    private let state = Locked(State())

    var log: [PictureInPictureControllerEvent] { state.withLock { $0.log } }
    var restorePolicy: RestorePolicy {
        get { state.withLock { $0.policy } }
        set { state.withLock { $0.policy = newValue } }
    }

    /// Calls the completion handlers kept under the `.never` policy.
    func completeKeptRestores(_ restored: Bool) {
        for handler in state.withLock({ s in
            defer { s.pending = [] }
            return s.pending
        }) { handler(restored) }
    }

    private func record(_ event: PictureInPictureControllerEvent) { state.withLock { $0.log.append(event) } }

    func pictureInPictureControllerWillStartPictureInPicture(_ controller: PictureInPictureController) {
        record(.willStart)
    }
    func pictureInPictureControllerDidStartPictureInPicture(_ controller: PictureInPictureController) {
        record(.didStart)
    }
    func pictureInPictureController(
        _ controller: PictureInPictureController,
        failedToStartPictureInPictureWithError error: PictureInPictureError
    ) {
        record(.failedToStart(error))
    }
    func pictureInPictureController(
        _ controller: PictureInPictureController,
        restoreUserInterfaceForPictureInPictureStopWithCompletionHandler completionHandler:
            @escaping @Sendable (Bool) -> Void
    ) {
        record(.restoreUserInterface)
        switch restorePolicy {
        case .complete(let restored): completionHandler(restored)
        case .never: state.withLock { $0.pending.append(completionHandler) }
        }
    }
    func pictureInPictureControllerWillStopPictureInPicture(_ controller: PictureInPictureController) {
        record(.willStop)
    }
    func pictureInPictureControllerDidStopPictureInPicture(_ controller: PictureInPictureController) {
        record(.didStop)
    }
}

/// Collects a controller's event stream until it ends (after `invalidate()`).
final class EventLog: Sendable {
    private final class Events: Sendable {
        let list = Locked<[PictureInPictureControllerEvent]>([])
    }
    private let events = Events()
    private let task: Task<Void, Never>

    init(_ controller: PictureInPictureController) {
        let stream = controller.events()
        let events = self.events
        task = Task { for await event in stream { events.list.withLock { $0.append(event) } } }
    }

    /// Every event, once the stream has ended; records an issue if it does not end (see `withDeadline`).
    func complete(timeout: Duration = .seconds(60)) async -> [PictureInPictureControllerEvent] {
        do {
            try await withDeadline("the controller's event stream to end", timeout: timeout) { [task] in
                await task.value
            }
        } catch {
            Issue.record("\(error)")
        }
        return events.list.withLock { $0 }
    }
}

extension Array where Element == PictureInPictureControllerEvent {
    /// Only the session events (the delegate's vocabulary).
    var session: [PictureInPictureControllerEvent] {
        filter {
            switch $0 {
            case .possible, .contentSource, .playbackState: return false
            default: return true
            }
        }
    }

    /// The playback-state events as snapshots.
    var playbackStates: [PlaybackStateSnapshot] {
        compactMap {
            guard case .playbackState(let id, let duration, let elapsed, let status) = $0 else { return nil }
            return PlaybackStateSnapshot(
                stateID: id, itemName: nil, contentDuration: duration, elapsed: elapsed,
                timeControlStatus: status)
        }
    }
}

/// An app playing one clip under a manual clock, with a controller, its delegate and its event log.
struct Rig {
    let clock: ManualClock
    let system: SimulatedPictureInPictureSystem
    let player: Player
    let layer: PlayerLayer
    let controller: PictureInPictureController
    let delegate: RecordingDelegate
    let log: EventLog

    /// Starts `clip` playing (settled: its first frame is shown) and makes a controller for its layer.
    static func make(
        _ clip: String = "a.mp4", profile: HostProfile = .iOS, startLatency: Duration = .zero,
        restoreTimeout: Duration = .seconds(5), playing: Bool = true,
        app: SimulatedAppEnvironment = SimulatedAppEnvironment()
    ) async -> Rig {
        let clock = ManualClock()
        let system = SimulatedPictureInPictureSystem(
            profile: profile, clock: .manual(clock), startLatency: startLatency,
            restoreTimeout: restoreTimeout, app: app)
        let player = Player(item: PlayerItem(url: MediaFixtures.path(clip)), clock: .manual(clock), audio: false)
        let layer = PlayerLayer(player: player)
        if playing { player.play() }
        await clock.advance(by: .zero)
        let controller = PictureInPictureController(playerLayer: layer, system: system)
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        return Rig(
            clock: clock, system: system, player: player, layer: layer, controller: controller,
            delegate: delegate, log: EventLog(controller))
    }

    /// Starts Picture in Picture and settles; the window must be open.
    func startPictureInPicture() async throws -> PictureInPictureWindow {
        try controller.startPictureInPicture()
        await clock.advance(by: .zero)
        return try #require(system.window(for: controller), "the window did not open")
    }

    /// Ends the controller and returns its whole event stream.
    func finish() async -> [PictureInPictureControllerEvent] {
        controller.invalidate()
        await clock.advance(by: .zero)
        let events = await log.complete()
        player.invalidate()
        return events
    }
}

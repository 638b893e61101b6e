import Foundation
import PictureInPicture
import Playback

/// The app's Picture in Picture rules, over playctl's PiP controller: when the app goes to the background while
/// its main player plays, PiP starts; "next" in the PiP window swaps to the next video of the playlist without
/// closing the window; coming back to the app stops PiP. Everything it saw is in `log`, in order.
public final class PiPCoordinator: PictureInPictureControllerDelegate, @unchecked Sendable {
    public let system: SimulatedPictureInPictureSystem
    public let controller: PictureInPictureController
    private let clock: ClockMode
    private let lock = NSLock()
    private var playlist: [String]
    private var entries: [String] = []

    /// Coordinates PiP for `layer`'s player, which plays the first of `playlist`.
    public init(layer: PlayerLayer, playlist: [String], clock: ClockMode) {
        self.clock = clock
        self.playlist = playlist
        system = SimulatedPictureInPictureSystem(profile: .iOS, clock: clock)
        controller = PictureInPictureController(playerLayer: layer, system: system)
        controller.delegate = self
        controller.observeEvents { [weak self] event in self?.append(event.name) }
    }

    /// What happened, in order: controller events by name, and the coordinator's own decisions.
    public var log: [String] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }

    private func append(_ entry: String) {
        lock.lock()
        entries.append(entry)
        lock.unlock()
    }

    /// The app went to the background: PiP starts if the main player plays.
    public func appDidEnterBackground() {
        guard controller.playerLayer?.player?.timeControlStatus == .playing else {
            append("not playing: no PiP")
            return
        }
        append("start")
        try? controller.startPictureInPicture()
    }

    /// The app is back: PiP stops.
    public func appWillEnterForeground() {
        guard controller.isPictureInPictureActive else { return }
        append("stop")
        controller.stopPictureInPicture()
    }

    /// "Next" from the PiP window: a new player for the next video, prepared off screen, then swapped in; the
    /// window stays open. Returns the new player, or nil at the end of the playlist.
    public func playNext() async -> Player? {
        let next: String? = {
            lock.lock()
            defer { lock.unlock() }
            guard playlist.count > 1 else { return nil }
            playlist.removeFirst()
            return playlist.first
        }()
        guard let next else { return nil }
        append("next \((next as NSString).lastPathComponent)")
        guard
            let prepared = try? await controller.swapContentSource(
                to: PlayerItem(url: next), clock: clock, audio: false)
        else { return nil }
        return prepared.player
    }
}

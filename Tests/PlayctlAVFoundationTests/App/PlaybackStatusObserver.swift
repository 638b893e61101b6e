import AVFoundation
import AVKit

/// App code written for iOS: shows a spinner while the player waits, following `timeControlStatus` with KVO.
final class PlaybackStatusObserver: Sendable {
    private let observation: NSKeyValueObservation
    private let onChange: @Sendable (String) -> Void

    init(player: AVPlayer, onChange: @escaping @Sendable (String) -> Void) {
        self.onChange = onChange
        observation = player.observe(\.timeControlStatus, options: [.initial, .old, .new]) { player, change in
            guard let status = change.newValue else { return }
            switch status {
            case .paused:
                onChange("paused" + (change.oldValue.map { " (was \($0))" } ?? ""))
            case .waitingToPlayAtSpecifiedRate:
                let reason = player.reasonForWaitingToPlay
                // Apple: no spinner for .evaluatingBufferingRate alone.
                onChange(
                    reason == .evaluatingBufferingRate
                        ? "waiting, no spinner" : "spinner (\(reason?.description ?? "?"))")
            case .playing:
                onChange("playing")
            @unknown default:
                break
            }
        }
    }

    func stop() { observation.invalidate() }
}

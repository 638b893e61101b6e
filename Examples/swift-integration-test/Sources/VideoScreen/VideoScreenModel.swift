import AVFoundation
import AVKit
import CoreMedia

import class AVKit.AVPictureInPictureController

/// A video screen's model as an iOS app writes it, its imports unchanged: it compiles against Apple's frameworks on
/// iOS and against playctl's modules of the same names on Linux.
public final class VideoScreenModel: NSObject, AVPictureInPictureControllerDelegate, @unchecked Sendable {
    public let player: AVPlayer
    public let playerLayer: AVPlayerLayer
    public private(set) var pictureInPicture: AVPictureInPictureController?
    /// What the screen showed, in order.
    public var log: [String] { lock.withLock { entries } }
    private var entries: [String] = []
    private let lock = NSLock()
    private var statusObservation: NSKeyValueObservation?
    private var timeObserver: Any?

    public init(url: URL) {
        player = AVPlayer(playerItem: AVPlayerItem(asset: AVURLAsset(url: url)))
        playerLayer = AVPlayerLayer(player: player)
        super.init()
        statusObservation = player.currentItem?.observe(\.status, options: [.new]) { [weak self] item, _ in
            self?.note("status \(item.status == .readyToPlay ? "ready" : "not ready")")
        }
        timeObserver = player.addPeriodicTimeObserver(
            forInterval: CMTimeMake(value: 1, timescale: 1), queue: DispatchQueue(label: "time")
        ) { [weak self] time in
            self?.note("at \(Int(CMTimeGetSeconds(time)))")
        }
        if AVPictureInPictureController.isPictureInPictureSupported() {
            pictureInPicture = AVPictureInPictureController(playerLayer: playerLayer)
            pictureInPicture?.delegate = self
        }
    }

    /// Observers and delegates call in from other threads.
    private func note(_ entry: String) { lock.withLock { entries.append(entry) } }

    /// Jumps to `seconds`, exactly.
    public func jump(to seconds: Double, completion: @escaping @Sendable (Bool) -> Void) {
        let target = CMTime(seconds: seconds, preferredTimescale: 600)
        player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero, completionHandler: completion)
    }

    /// Whether `time` lies in the first `seconds` of the item.
    public func isInIntro(_ time: CMTime, seconds: Double) -> Bool {
        CMTimeRangeContainsTime(
            CMTimeRangeMake(start: .zero, duration: CMTimeMakeWithSeconds(seconds, preferredTimescale: 600)), time: time
        )
    }

    public func pictureInPictureControllerDidStartPictureInPicture(
        _ pictureInPictureController: AVPictureInPictureController
    ) {
        note("PiP started")
    }
}

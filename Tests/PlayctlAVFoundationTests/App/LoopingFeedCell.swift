import AVFoundation
import AVKit

/// App code written for iOS: a feed cell that loops its clip without gaps and is reused for the next clip.
@MainActor
final class LoopingFeedCell {
    let player = AVQueuePlayer()
    let playerLayer: AVPlayerLayer
    private var looper: AVPlayerLooper?

    init() {
        player.isMuted = true
        playerLayer = AVPlayerLayer(player: player)
        playerLayer.videoGravity = .resizeAspectFill
    }

    func configure(with url: URL) {
        let item = AVPlayerItem(url: url)
        looper = AVPlayerLooper(player: player, templateItem: item)
        player.play()
    }

    var loopCount: Int { looper?.loopCount ?? 0 }

    func prepareForReuse() {
        player.pause()
        looper?.disableLooping()
        looper = nil
        player.removeAllItems()
    }
}

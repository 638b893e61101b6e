import AVFoundation
import AVKit

/// App code written for iOS: a pool of players made up front, handed out and reset for reuse.
actor PlayerPool {
    private var idle: [AVPlayer] = []
    private(set) var created = 0
    private(set) var handedOut = 0

    init(size: Int) {
        for _ in 0..<size {
            let player = AVPlayer()
            player.automaticallyWaitsToMinimizeStalling = true
            player.preventsDisplaySleepDuringVideoPlayback = true
            idle.append(player)
        }
        created = size
    }

    /// A player with nothing in it.
    func acquire() -> AVPlayer {
        handedOut += 1
        if let player = idle.popLast() { return player }
        created += 1
        return AVPlayer()
    }

    /// Back to the pool: paused, no item.
    func release(_ player: AVPlayer) {
        player.replaceCurrentItem(with: nil)
        player.pause()
        idle.append(player)
    }

    var idleCount: Int { idle.count }
}

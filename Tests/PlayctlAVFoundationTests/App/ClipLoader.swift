import AVFoundation
import AVKit

/// App code written for iOS: loads an asset's duration and playability before it plays it.
struct ClipLoader {
    enum LoadError: Error {
        case notPlayable
    }

    /// Loads `url`, then plays it on `player`; returns its duration.
    func play(_ url: URL, on player: AVPlayer) async throws -> CMTime {
        let asset = AVURLAsset(url: url, options: [AVURLAssetPreferPreciseDurationAndTimingKey: true])
        let (duration, isPlayable) = try await asset.load(.duration, .isPlayable)
        guard isPlayable else { throw LoadError.notPlayable }
        let item = AVPlayerItem(asset: asset, automaticallyLoadedAssetKeys: [.duration])
        player.replaceCurrentItem(with: item)
        player.play()
        return duration
    }
}

import Foundation
import Loading
import Locking
import MediaCore
import Playback
import PlaybackTesting
import Testing

/// A live stream played under the untimed clock until `seconds` of media were shown (or it failed), for the live HLS
/// and DASH tests: the play reaches the live edge at once, then goes on as the encoder makes segments.
struct LivePlay {
    let player: Player
    let item: PlayerItem
    /// The times of the frames shown.
    let times: [Double]

    static func run(_ url: String, seconds: Int) async throws -> LivePlay {
        let player = Player(clock: .untimed, audio: false)
        let times = Locked<[Double]>([])
        player.add(VideoSink { frame in times.withLock { $0.append(frame.time.seconds) } })
        let item = PlayerItem(url: url, loading: RemoteLoading(cache: ByteCache()))
        player.replaceCurrentItem(with: item)
        player.play()
        do {
            try await waitUntil("\(seconds) s of media played", timeout: .seconds(60)) {
                times.withLock { $0.count } >= seconds * 30 || item.status == .failed
            }
        } catch {
            player.invalidate()
            throw error
        }
        return LivePlay(player: player, item: item, times: times.withLock { $0 })
    }

    /// Checks that it plays, as live, `recommended` seconds behind the edge by default, within
    /// of it now (`range`), its frames 1/30 s apart (no gap, no repeat).
    func check(recommended: Double, within range: ClosedRange<Double>) {
        #expect(item.status == .readyToPlay, "\(String(describing: item.error))")
        #expect(item.duration.isIndefinite, "a live item has no duration")
        #expect(
            abs(item.recommendedTimeOffsetFromLive.seconds - recommended) < 0.001,
            "\(item.recommendedTimeOffsetFromLive)")
        let offset = item.currentTimeOffsetFromLive
        #expect(offset.isNumeric && range.contains(offset.seconds), "\(offset)")
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 0.002 }, "no gap, no repeat")
    }
}

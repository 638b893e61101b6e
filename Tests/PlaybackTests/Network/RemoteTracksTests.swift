import Foundation
import Loading
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// Subtitles of http(s) items: the container's track read by a reader of its own through the loader, a sidecar
/// file fetched by the loader too.
@Suite("Tracks over HTTP", .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct RemoteTracksTests {
    @Test("French audio and subtitles of a remote Matroska file, and a remote sidecar: the cues of the files")
    func remoteSubtitles() async throws {
        let loading = RemoteLoading(cache: ByteCache())
        for (sidecar, expected) in [
            (nil, TrackClips.frenchCues.map { $0.shifted(by: TrackClips.mediaOffset("tracks.mkv")) }),
            (TestHTTPServer.url("tracks/tracks.vtt"), TrackClips.sidecarCues),
        ] {
            let item = PlayerItem(url: TestHTTPServer.url("tracks/tracks.mkv"), loading: loading)
            if let sidecar { item.addSidecarSubtitle(SidecarSubtitle(url: sidecar, isDefault: true)) }
            let cues = Locked<[TrackClips.Cue]>([])
            let player = Player(clock: .untimed)
            defer { player.invalidate() }
            if sidecar == nil {
                player.setMediaSelectionCriteria(
                    MediaSelectionCriteria(preferredLanguages: ["fr"]), forMediaCharacteristic: .legible)
            }
            player.observeEvents { event in
                if case .cue(let cue) = event.kind {
                    cues.withLock { $0.append(TrackClips.Cue(cue.start.seconds, cue.end.seconds, cue.text)) }
                }
            }
            let events = player.events()
            player.replaceCurrentItem(with: item)
            player.play()
            _ = try await firstElement(of: events, "tracks.mkv over HTTP to play to its end") { event in
                if case .mediaOptionFailed(_, _, let error) = event.kind { Issue.record("\(error)") }
                switch event.kind {
                case .didPlayToEnd, .failedToPlayToEnd: return true
                default: return false
                }
            }
            await player.callbacksDelivered()
            #expect(TrackClips.matches(cues.withLock { $0 }, expected), "\(cues.withLock { $0 })")
        }
    }
}

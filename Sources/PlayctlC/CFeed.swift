import CPlayctl
import EventJSON
import Feed
import Foundation
import Locking
import MediaIO
import Playback
import PlayctlOutput

/// What a `playctl_feed *` points at (retained by the handle): a feed controller, a layer on each of its pooled
/// players (the pictures `playctl_feed_render_sw` scales), its C event queue and the swipes counted for the
/// summary.
///
/// Feed events become C events on the feed's callback executor, in order: the same objects `playctl feed --json`
/// prints (``FeedEventJSON``), with the index, the entry's URL and a latency as typed fields.
final class CFeed: Sendable {
    let feed: FeedController
    let manualClock: ManualClock?
    let layers: [PlayerLayer]
    let source = EventSource()
    /// libswscale's context for `playctl_feed_render_sw`, one conversion at a time.
    let converter = Locked(FrameConverter())
    /// The serial of the frame `playctl_feed_render_sw` last drew for each entry.
    let rendered = Locked<[Int: UInt64]>([:])
    /// Each pooled player's layer's frame count when the player was last acquired (before its new item loads): a
    /// frame shown since is the new item's, one before is a frame of the item it held before.
    private let acquiredAt = Locked<[Int: Int]>([:])
    private let swipes = Locked((swipes: 0, flings: 0))

    init(entries: [FeedEntry], configuration: FeedConfiguration, manual: Bool) {
        let clock = manual ? ManualClock() : nil
        manualClock = clock
        feed = FeedController(
            entries: entries, configuration: configuration, clock: clock.map { .manual($0) } ?? .host)
        let layers = feed.pool.players.map { PlayerLayer(player: $0) }
        self.layers = layers
        let acquiredAt = self.acquiredAt
        feed.pool.observe { event in
            guard case .acquire(let player, _) = event, layers.indices.contains(player) else { return }
            let frames = layers[player].framesDisplayed
            acquiredAt.withLock { $0[player] = frames }
        }
        feed.observeEvents { [weak self] event in self?.handle(event) }
    }

    /// Stops the feed; afterwards no app callback runs and no event is queued.
    func close() {
        source.close()
        feed.invalidate()
        for layer in layers { layer.player = nil }
    }

    /// The user scrolled to `index` at `speed`.
    func scroll(to index: Int, speed: Double) {
        let flingSpeed = feed.configuration.policy.flingSpeed
        swipes.withLock {
            $0.swipes += 1
            if speed > flingSpeed { $0.flings += 1 }
        }
        feed.scroll(to: index, speed: speed)
    }

    /// The summary so far as `playctl feed --json`'s `feed.summary` line.
    func summaryJSON() -> String {
        let summary = feed.summary
        let counts = swipes.withLock { $0 }
        return FeedEventJSON.summary(summary, time: feed.now, swipes: counts.swipes, flings: counts.flings)
            .serialized()
    }

    /// The layer of the player holding entry `index`, once it has shown a frame of that entry.
    func layer(for index: Int) -> PlayerLayer? {
        guard let player = feed.player(for: index),
            let position = feed.pool.players.firstIndex(where: { $0 === player })
        else { return nil }
        let layer = layers[position]
        let since = acquiredAt.withLock { $0[position] } ?? 0
        return layer.framesDisplayed > since ? layer : nil
    }

    private func handle(_ event: FeedEvent) {
        var out = QueuedEvent(PLAYCTL_EVENT_FEED)
        out.name = event.name
        out.json = FeedEventJSON.object(event, entries: feed.entries).serialized()
        out.index = Int64(event.index)
        out.time = event.time
        out.clockTime = event.time
        if feed.entries.indices.contains(event.index) { out.item = feed.entries[event.index].url }
        switch event.kind {
        case .firstFrame(_, let latency, _), .started(_, let latency, _), .poster(_, let latency, _):
            out.latency = latency
        case .failed(_, let error), .sizeProbeFailed(_, let error):
            out.error = CError.code(ofDescription: error)
            out.message = error
        case .rendition(_, let choice):
            out.value = Int64(choice.rendition.bitrate)
            out.width = Int32(clamping: choice.rendition.width ?? 0)
            out.height = Int32(clamping: choice.rendition.height ?? 0)
        case .capped(_, let bytes, _), .sized(_, let bytes, _):
            out.value = bytes
        default: break
        }
        source.push(out)
    }

    /// The kind of `url` when the app gives none: images by their extension, videos otherwise.
    static func kind(of url: String) -> FeedEntry.Kind {
        PictureFileName.matches(url) ? .image : .video
    }
}

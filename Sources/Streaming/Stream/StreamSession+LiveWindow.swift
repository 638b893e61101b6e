import MediaCore

/// A live play's retained window: what a session keeps of a live playlist and of its own records per segment
/// (decisions, downloads, segments entered) is bounded in count however long the play goes on. Each reload appends
/// the new segments; the segments behind the primary reader past ``StreamSession/liveSegmentsKeptBehind`` are
/// dropped, and past ``StreamSession/liveSegmentLimit`` in all the oldest are, the reader's own included (a reader
/// left that far behind, a play paused for minutes, gets a typed error: its segments are gone from a sliding
/// window's origin too).
extension StreamSession {
    /// Segments kept behind the primary reader's in a live play: a demuxer's step back and a short seek back land in
    /// them.
    public static let liveSegmentsKeptBehind = 6

    /// The most segments a live play keeps (listed ahead of the reader included): an EVENT playlist lists every
    /// segment since its start, and a paused reader would let a sliding window's grow forever.
    public static let liveSegmentLimit = MediaPlaylist.liveSegmentLimit

    /// How many segments the session keeps now: listed (the reference playlist's), and in its records per segment
    /// (decisions, downloads, segments entered), for tests of the bound.
    var retainedCounts: (listed: Int, records: Int) {
        withState { s in
            let playlists = s.playlists.values.reduce(0) { $0 + $1.segments.count }
            return (s.reference.segments.count, s.decisions.count + s.downloaded.count + s.entered.count + playlists)
        }
    }

    /// The first segment a live window keeps of those from `first` to before `end`, its reader at `reader`: at most
    /// ``liveSegmentsKeptBehind`` behind the reader's, at most ``liveSegmentLimit`` in all, the last one always kept.
    static func liveWindowStart(reader: Int, first: Int, end: Int) -> Int {
        min(max(reader - liveSegmentsKeptBehind, end - liveSegmentLimit, first), end - 1)
    }

    /// For a live play: the typed error a reader gets for segment `index` when the retained window no longer holds
    /// it (nil when it does, or the play is not live).
    func droppedFromWindow(_ index: Int, _ s: State) -> MediaError? {
        guard s.isLive, index < s.firstIndex else { return nil }
        return MediaError(
            .readFailed, url: url, operation: .read,
            reason: "the play fell behind the live window: segment \(index) was dropped (the session keeps "
                + "\(Self.liveSegmentLimit) segments; it keeps from \(s.firstIndex) on)")
    }
}

extension StreamSession.State {
    /// A load of variant `id`'s live playlist: its segments after the last one known are appended to the reference
    /// (by media sequence number: the variants are aligned), the load is kept as that variant's playlist, and what
    /// falls behind the retained window is dropped. Returns how many segments were appended.
    mutating func takeLiveReload(_ playlist: MediaPlaylist, of id: String) -> Int {
        let (merged, added) = LivePlaylist.merge(reference, playlist)
        reference = merged
        playlists[id] = playlist
        trimLiveWindow()
        return added
    }

    /// Drops what a live play keeps behind its retained window: the reference playlist's segments and the records
    /// of the segments before the first kept (at most ``StreamSession/liveSegmentsKeptBehind`` behind the reader,
    /// at most ``StreamSession/liveSegmentLimit`` in all, the last segment listed always kept).
    mutating func trimLiveWindow() {
        guard isLive, !reference.segments.isEmpty else { return }
        let keepFrom = StreamSession.liveWindowStart(reader: readerIndex, first: firstIndex, end: endIndex)
        guard keepFrom > firstIndex else { return }
        reference.segments.removeFirst(keepFrom - firstIndex)
        let firstSequence = reference.segments[0].sequence
        reference.mediaSequence = firstSequence
        firstIndex = keepFrom
        decisions = decisions.filter { $0.key >= keepFrom }
        downloaded = downloaded.filter { $0 >= keepFrom }
        entered = entered.filter { $0 >= keepFrom }
        downloadIndex = max(downloadIndex, keepFrom)
        for (id, playlist) in playlists where playlist.segments.first.map({ $0.sequence < firstSequence }) == true {
            var kept = playlist
            kept.segments.removeAll { $0.sequence < firstSequence }
            kept.mediaSequence = kept.segments.first?.sequence ?? firstSequence
            playlists[id] = kept
        }
    }
}

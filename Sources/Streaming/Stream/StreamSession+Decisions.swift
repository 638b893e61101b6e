import Loading
import MediaCore

/// Deciding: which variant each segment comes from (the ABR machine, asked once per segment, under the lock), and
/// the media playlist of a variant decided.
extension StreamSession {
    /// The variant of segment `index`: decided already, or now by the ABR machine (its playlist is loaded after,
    /// outside the lock, by ``segment(at:)``: a switch waits for the new variant's playlist, as hls.js's does).
    func decide(_ index: Int, _ s: inout State) -> (Variant, VariantSwitch?) {
        if let id = s.decisions[index], let variant = presentation.variants.first(where: { $0.id == id }) {
            return (variant, nil)
        }
        guard let listed = s.timelineSegment(index) else {
            preconditionFailure("deciding segment \(index), which is not listed (callers check)")
        }
        let duration = listed.duration
        s.abr.bufferLevel(bufferAhead(s))
        s.abr.liveEdge(availableSeconds: s.isLive ? liveEdgeDistance(s) : nil)
        let decision = s.abr.nextSegment(duration: duration)
        let chosen = decision.variant
        s.decisions[index] = chosen.id
        var change: VariantSwitch?
        if chosen.id != s.current?.id {
            let reason = decision.reason == .unchanged ? s.pendingReason ?? decision.reason : decision.reason
            s.pendingReason = nil
            change = VariantSwitch(
                from: s.current, to: chosen, segmentIndex: index, seconds: listed.start - s.origin,
                reason: reason.rawValue, estimate: s.abr.estimate)
            s.recordSwitch(change!)
        }
        s.current = chosen
        return (chosen, change)
    }

    /// Seconds of media downloaded ahead of the primary reader's segment.
    func bufferAhead(_ s: State) -> Double {
        var seconds = 0.0
        var index = s.readerIndex + 1
        while let segment = s.timelineSegment(index), s.downloaded.contains(index) {
            seconds += segment.duration
            index += 1
        }
        return seconds
    }

    /// Seconds of media listed after the primary reader's segment: how far it is from the live edge.
    func liveEdgeDistance(_ s: State) -> Double {
        var seconds = 0.0
        var index = s.readerIndex + 1
        while let segment = s.timelineSegment(index) {
            seconds += segment.duration
            index += 1
        }
        return seconds
    }

    /// Segment `index` of `variant` (decided for it); nil past its last.
    func segment(_ index: Int, of variant: Variant) throws(MediaError) -> (variant: Variant, segment: Segment)? {
        if withState({ $0.isLive }) { return try liveSegment(index, of: variant) }
        let playlist = try playlist(of: variant)
        guard index < playlist.segments.count else { return nil }
        return (variant, playlist.segments[index])
    }

    func playlist(of variant: Variant) throws(MediaError) -> MediaPlaylist {
        if let playlist = withState({ $0.playlists[variant.id] }) { return playlist }
        let playlist = try ManifestLoader.playlist(variant.media, loading: loading)
        withState { $0.playlists[variant.id] = playlist }
        return playlist
    }

    /// Forgets the decisions of the segments neither read nor downloaded (nor downloading): they are decided again,
    /// under what changed (limits, a stall), and downloaded from the one after the reader's.
    func redecideAhead(_ s: inout State) {
        let keep = s.readerIndex
        let downloading = s.downloading?.index
        s.decisions = s.decisions.filter { $0.key <= keep || s.downloaded.contains($0.key) || $0.key == downloading }
        s.downloadIndex = keep + 1
        s.generation += 1
    }
}

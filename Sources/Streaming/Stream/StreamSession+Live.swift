import Foundation
import Loading
import MediaCore

/// Live playlists: where a play starts, and how the list is reloaded and grown.
enum LivePlaylist {
    /// How far behind a live playlist's end a play starts by default: three target durations (RFC 8216 6.3.3; AVPlayer's
    /// `recommendedTimeOffsetFromLive`), or a dynamic MPD's `suggestedPresentationDelay`.
    static func recommendedOffset(of playlist: MediaPlaylist) -> Double {
        playlist.suggestedLiveOffset ?? 3 * playlist.targetDuration
    }

    /// The segment a live play starts with: the last one that starts at least `offset` seconds before the playlist's
    /// end (nil or not a positive number: ``recommendedOffset(of:)``), or the first.
    static func edgeIndex(of playlist: MediaPlaylist, offset: Double? = nil) -> Int {
        let end = playlist.segments.last.map { $0.start + $0.duration } ?? 0
        let distance = offset.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? recommendedOffset(of: playlist)
        return playlist.segments.lastIndex { $0.start <= end - distance + 1e-6 } ?? 0
    }

    /// How long the live reloader waits before the next reload of `playlist` at the wall clock `now`: the target
    /// duration (or the list's own reload interval, a timeline MPD's `minimumUpdatePeriod`) after a change, half of it
    /// after a reload that brought nothing (RFC 8216 6.3.4). `byClock` (a dynamic MPD without a reload interval: a
    /// `$Number$` template, whose segments come by the wall clock): until a tenth of a second after the next segment
    /// is due (its end: the last one's date plus two durations; an origin writes it about then), unless reloads came
    /// back empty; at most the target duration. At least a tenth of a second.
    static func reloadWait(_ playlist: MediaPlaylist, staleReloads: Int, now: Double, byClock: Bool = false) -> Double {
        if byClock, staleReloads == 0, playlist.reloadInterval == nil, let last = playlist.segments.last,
            let date = last.programDate
        {
            let next = date + last.duration + playlist.targetDuration
            return min(max(next + 0.1 - now, 0.1), playlist.targetDuration)
        }
        let interval = playlist.reloadInterval ?? playlist.targetDuration
        return max(interval * (staleReloads > 0 ? 0.5 : 1), 0.1)
    }

    /// Whether `candidate` (of a variant's playlist) is the segment `listed` (of the session's timeline): the same
    /// program date within half the shorter duration when both have one, else the same media sequence number.
    static func matches(_ candidate: Segment, _ listed: Segment) -> Bool {
        if let date = candidate.programDate, let wanted = listed.programDate {
            return abs(date - wanted) < min(candidate.duration, listed.duration) / 2
        }
        return candidate.sequence == listed.sequence
    }

    /// Whether `candidate` comes before `listed` on the timeline (by program date when both have one, else by media
    /// sequence number) without being it: a playlist whose last segment precedes a segment lags it.
    static func precedes(_ candidate: Segment, _ listed: Segment) -> Bool {
        guard !matches(candidate, listed) else { return false }
        if let date = candidate.programDate, let wanted = listed.programDate { return date < wanted }
        return candidate.sequence < listed.sequence
    }

    /// `known` grown by the segments of `reloaded` after its last one (told apart by program date when both have
    /// one, else by media sequence number: ``precedes(_:_:)``; `reloaded` may be another variant's playlist), each
    /// placed after the one before it on the timeline; its end and kind from `reloaded`.
    static func merge(_ known: MediaPlaylist, _ reloaded: MediaPlaylist) -> (playlist: MediaPlaylist, added: Int) {
        var merged = known
        let last = known.segments.last
        var end = last.map { $0.start + $0.duration } ?? 0
        var added = 0
        func isNew(_ segment: Segment) -> Bool {
            guard let last else { return segment.sequence >= known.mediaSequence }
            return precedes(last, segment)
        }
        for var segment in reloaded.segments where isNew(segment) {
            segment.start = end
            end += segment.duration
            merged.segments.append(segment)
            added += 1
        }
        merged.hasEnd = reloaded.hasEnd
        merged.kind = reloaded.kind
        merged.targetDuration = reloaded.targetDuration
        merged.reloadInterval = reloaded.reloadInterval
        merged.suggestedLiveOffset = reloaded.suggestedLiveOffset
        return (merged, added)
    }
}

extension StreamSession {
    /// For a live playlist: three of its target durations, how far behind its end a play starts by default (RFC
    /// 8216 6.3.3); nil for a presentation with an end.
    public var recommendedLiveOffset: Double? {
        withState { s in s.isLive ? LivePlaylist.recommendedOffset(of: s.reference) : nil }
    }

    /// For a live playlist: how far behind its end (as last reloaded) `playhead` is, in seconds (the play's time:
    /// 0 where it started); nil for a presentation with an end. Media3's `getCurrentLiveOffset`, hls.js's
    /// `latency`, measured to the playlist's end.
    public func liveOffset(playhead: Double) -> Double? {
        withState { s in
            guard s.isLive, !s.reference.hasEnd, let last = s.reference.segments.last else { return nil }
            return max(0, last.start + last.duration - (playhead + s.origin))
        }
    }

    /// How many reloads in a row may bring nothing new before a reader waiting for the next segment gives up.
    static let maximumStaleReloads = 6

    /// The live reloader's step: waits (``LivePlaylist/reloadWait(_:staleReloads:now:byClock:)``), then
    /// ``reloadLiveOnce()``. Returns false once the session is closed or the playlist has ended.
    func reloadLive() -> Bool {
        let now = wallClock()
        let (wait, done) = withState { s -> (Double, Bool) in
            let wait = LivePlaylist.reloadWait(
                s.reference, staleReloads: s.staleReloads, now: now, byClock: presentation.format == .dash)
            return (wait, s.closed || s.reference.hasEnd)
        }
        if done { return false }
        sleep(seconds: wait)
        return reloadLiveOnce()
    }

    /// Reloads the playlist of the variant played (the one decided last: the next segments come from it) past the
    /// cache and appends what is new, dropping what falls behind the retained window (``trimLiveWindow()``). Returns
    /// whether reloads go on (false once closed, ended, or given up).
    func reloadLiveOnce() -> Bool {
        guard let variant = withState({ $0.current }) else { return false }
        let url = playlistURL(of: variant)
        let reloaded: Result<MediaPlaylist, MediaError>
        do throws(MediaError) {
            reloaded = .success(try loadLivePlaylist(of: variant))
        } catch {
            reloaded = .failure(error)
        }
        let keepGoing = withState { s -> Bool in
            guard !s.closed else { return false }
            switch reloaded {
            case .success(let playlist):
                let added = s.takeLiveReload(playlist, of: variant.id)
                s.staleReloads = added > 0 ? 0 : s.staleReloads + 1
            case .failure(let error):
                s.staleReloads += 1
                if s.staleReloads >= Self.maximumStaleReloads { s.liveFailure = error }
            }
            if s.staleReloads >= Self.maximumStaleReloads, s.liveFailure == nil {
                s.liveFailure = MediaError(
                    .timedOut, url: url, operation: .read,
                    reason: "the live playlist brought no new segment in \(Self.maximumStaleReloads) reloads")
            }
            s.generation += 1
            return !s.reference.hasEnd && s.liveFailure == nil
        }
        signal()
        return keepGoing
    }

    /// The URL of `variant`'s media playlist (a media playlist given alone is the presentation's own URL).
    func playlistURL(of variant: Variant) -> String {
        if case .playlist(let url) = variant.media { return url }
        return url
    }

    /// `variant`'s media playlist loaded now, past the cache (of a DASH presentation: its MPD read again at the wall
    /// clock, its Representation of the same id). Blocking.
    private func loadLivePlaylist(of variant: Variant) throws(MediaError) -> MediaPlaylist {
        let url = playlistURL(of: variant)
        loading.cache.remove(url)
        guard presentation.format == .dash else {
            return try ManifestLoader.playlist(.playlist(url: url), loading: loading)
        }
        let reloaded = try ManifestLoader.presentation(url, loading: loading, now: wallClock())
        guard let same = reloaded.variants.first(where: { $0.id == variant.id }) else {
            throw MediaError(
                .malformedManifest, url: url, operation: .read,
                reason: "the reloaded MPD no longer has Representation '\(variant.id)'")
        }
        return try ManifestLoader.playlist(same.media, loading: loading)
    }

    /// How many times a live variant's playlist is loaded for a segment it does not list yet (a switch to a variant
    /// whose playlist lags the one played) before the play fails.
    static let liveVariantLoads = 3

    /// Segment `index` of `variant` in a live play: the one of the variant's playlist that starts at the program date
    /// of the reference's segment `index` when both have dates (RFC 8216: segments are matched by their place on the
    /// timeline, not their numbers), else the one with its media sequence number (the variants of one encode are
    /// numbered alike; hls.js falls back to it), timed as the reference's. The variant's
    /// playlist is loaded when its last load does not list it (a switch to it; or an older load), again half a target
    /// duration later while it lags (``liveVariantLoads`` loads in all). Nil when not listed (yet).
    /// - Throws: the loader's errors; `.malformedManifest` naming the variant's playlist when its fresh load still
    ///   does not list that media sequence number (its variants are not aligned, or it stopped being updated).
    func liveSegment(_ index: Int, of variant: Variant) throws(MediaError) -> (variant: Variant, segment: Segment)? {
        guard let listed = withState({ $0.timelineSegment(index) }) else { return nil }
        func find() -> Segment? {
            withState { s in s.playlists[variant.id]?.segments.first { LivePlaylist.matches($0, listed) } }
        }
        var found = find()
        var loads = 0
        while found == nil, loads < Self.liveVariantLoads {
            if loads > 0 {
                // Its playlist lags the reference's (its encoder writes a little later): wait for it, half a target
                // duration at a time (RFC 8216 6.3.4's pace after a reload without change). Past it: not aligned.
                let (lagging, wait) = withState { s in
                    (
                        s.playlists[variant.id]?.segments.last.map { LivePlaylist.precedes($0, listed) } ?? true,
                        s.reference.targetDuration / 2
                    )
                }
                guard lagging else { break }
                sleep(seconds: max(wait, 0.1))
            }
            let playlist = try loadLivePlaylist(of: variant)
            withState { _ = $0.takeLiveReload(playlist, of: variant.id) }
            found = find()
            loads += 1
        }
        guard var segment = found else {
            let held = withState { $0.playlists[variant.id]?.segments.map(\.sequence) ?? [] }
            let lists = held.isEmpty ? "no segment" : "media sequence \(held.min() ?? 0)-\(held.max() ?? 0)"
            throw MediaError(
                .malformedManifest, url: playlistURL(of: variant), operation: .read,
                reason: "variant \(variant.id)'s live playlist does not list media sequence \(listed.sequence) (it "
                    + "lists \(lists)): its variants are not aligned by media sequence number, or it stopped")
        }
        segment.start = listed.start
        return (variant, segment)
    }

    /// For a live playlist: waits until segment `index` is listed (a reload brings it), the playlist ends, or the
    /// origin is given up on (a typed stall: `.timedOut`, or the reload's own error).
    func waitForLiveSegment(_ index: Int) throws(MediaError) {
        while true {
            let (ready, failure, generation) = withState { s -> (Bool, MediaError?, UInt64) in
                let listed = index < s.endIndex || s.reference.hasEnd || !s.isLive
                return (listed || s.closed, s.liveFailure, s.generation)
            }
            if ready { return }
            if let failure { throw failure }
            waitForChange(after: generation)
        }
    }

    /// How long a reader waits before asking again for segment `index` that answered 404: half its duration when
    /// it belongs to a live MPD whose `$Number$` segments come by the wall clock and became due (its end, by that
    /// clock) less than ``liveEdgeTolerance`` ago (an encoder running late writes it after its time); nil otherwise
    /// (the failure stands: an origin that stopped).
    func liveEdgeWait(forSegment index: Int) -> Double? {
        let now = wallClock()
        return withState { s in
            guard s.isLive, !s.reference.hasEnd, presentation.format == .dash, s.reference.reloadInterval == nil,
                let segment = s.timelineSegment(index), let date = segment.programDate,
                now - (date + segment.duration) < Self.liveEdgeTolerance
            else { return nil }
            return max(segment.duration / 2, 0.1)
        }
    }

    /// How long after its time a live `$Number$` segment that answers 404 is still waited for (``liveEdgeWait``).
    static let liveEdgeTolerance = 15.0

    /// Waits `seconds`, or less when the session closes.
    func sleep(seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, !withState({ $0.closed }) {
            waitForChange(after: withState { $0.generation }, until: deadline)
        }
    }
}

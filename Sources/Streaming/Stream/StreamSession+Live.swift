import Foundation
import Loading
import MediaCore

/// Live playlists: where a play starts, and how the list is reloaded and grown.
enum LivePlaylist {
    /// How far behind a live playlist's end a play starts by default: three target durations (RFC 8216 6.3.3; AVPlayer's
    /// `recommendedTimeOffsetFromLive`).
    static func recommendedOffset(of playlist: MediaPlaylist) -> Double { 3 * playlist.targetDuration }

    /// The segment a live play starts with: the last one that starts at least `offset` seconds before the playlist's
    /// end (nil or not a positive number: ``recommendedOffset(of:)``), or the first.
    static func edgeIndex(of playlist: MediaPlaylist, offset: Double? = nil) -> Int {
        let end = playlist.segments.last.map { $0.start + $0.duration } ?? 0
        let distance = offset.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? recommendedOffset(of: playlist)
        return playlist.segments.lastIndex { $0.start <= end - distance + 1e-6 } ?? 0
    }

    /// `known` grown by the segments of `reloaded` after its last one (told apart by media sequence number), each
    /// placed after the one before it on the timeline; its end and kind from `reloaded`.
    static func merge(_ known: MediaPlaylist, _ reloaded: MediaPlaylist) -> (playlist: MediaPlaylist, added: Int) {
        var merged = known
        let last = known.segments.last.map(\.sequence) ?? (known.mediaSequence - 1)
        var end = known.segments.last.map { $0.start + $0.duration } ?? 0
        var added = 0
        for var segment in reloaded.segments where segment.sequence > last {
            segment.start = end
            end += segment.duration
            merged.segments.append(segment)
            added += 1
        }
        merged.hasEnd = reloaded.hasEnd
        merged.kind = reloaded.kind
        merged.targetDuration = reloaded.targetDuration
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

    /// The live reloader's step: waits (the target duration after a change, half of it after a reload that brought
    /// nothing, RFC 8216 6.3.4), then ``reloadLiveOnce()``. Returns false once the session is closed or the playlist
    /// has ended.
    func reloadLive() -> Bool {
        let (wait, done) = withState { s -> (Double, Bool) in
            (s.reference.targetDuration * (s.staleReloads > 0 ? 0.5 : 1), s.closed || s.reference.hasEnd)
        }
        if done { return false }
        sleep(seconds: max(wait, 0.1))
        return reloadLiveOnce()
    }

    /// Reloads the live variant's playlist past the cache and appends what is new, dropping what falls behind the
    /// retained window (``trimLiveWindow()``). Returns whether reloads go on (false once closed, ended, or given up).
    func reloadLiveOnce() -> Bool {
        guard let variant = withState({ $0.liveVariant }) else { return false }
        // A media playlist given alone is the presentation's own URL.
        let url: String
        if case .playlist(let playlistURL) = variant.media { url = playlistURL } else { url = self.url }
        loading.cache.remove(url)
        let reloaded: Result<MediaPlaylist, MediaError>
        do throws(MediaError) {
            reloaded = .success(try ManifestLoader.playlist(.playlist(url: url), loading: loading))
        } catch {
            reloaded = .failure(error)
        }
        let keepGoing = withState { s -> Bool in
            guard !s.closed else { return false }
            switch reloaded {
            case .success(let playlist):
                let (merged, added) = LivePlaylist.merge(s.reference, playlist)
                s.reference = merged
                s.playlists[variant.id] = merged
                s.staleReloads = added > 0 ? 0 : s.staleReloads + 1
                s.trimLiveWindow()
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

    /// Waits `seconds`, or less when the session closes.
    private func sleep(seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, !withState({ $0.closed }) {
            waitForChange(after: withState { $0.generation }, until: deadline)
        }
    }
}

import Foundation
import Loading
import MediaCore

/// A live HLS presentation's audio rendition (an `#EXT-X-MEDIA:TYPE=AUDIO` with a live media playlist of its own):
/// its playlist is reloaded on a thread of its own at its own target duration (RFC 8216 6.3.4) and grown as the
/// variant's is (``LivePlaylist/merge(_:_:)``), its retained window bounded as the video's
/// (``StreamSession/liveSegmentsKeptBehind`` behind the audio reader, ``StreamSession/liveSegmentLimit`` in all); the
/// audio reader starts at the segment matching the video's first on the timeline and waits past the last one listed
/// for the next reload. Six reloads in a row with nothing new (or failing) end its reads with a typed error naming
/// the audio playlist.
extension LivePlaylist {
    /// Where the audio reader of a live play starts in `audio` (its first load), and where the play's time 0 is on
    /// its timeline (that segment's start: the play starts there as the video's first segment does): at the segment
    /// matching `video` (the video's first segment played), by program date when both have one (``matches(_:_:)``;
    /// else the last one starting before `video`'s date), else by media sequence number (the renditions of one
    /// encode are numbered alike, as its variants). When `audio` lags (it does not list that segment yet) the reader
    /// starts at the next ones to be listed.
    static func audioStart(in audio: MediaPlaylist, matching video: Segment) -> (index: Int, origin: Double) {
        let segments = audio.segments
        guard let last = segments.last else { return (0, 0) }
        if let date = video.programDate, segments.allSatisfy({ $0.programDate != nil }) {
            let index =
                segments.firstIndex { matches($0, video) }
                ?? segments.lastIndex { ($0.programDate ?? 0) <= date }
                ?? 0
            // Lagging: every segment listed ends before the video's starts; the next one listed starts the play.
            let lastEnd = (last.programDate ?? 0) + last.duration
            if index == segments.count - 1, !matches(last, video), lastEnd <= date + 1e-3 {
                return (segments.count, last.start + last.duration)
            }
            return (index, segments[index].start)
        }
        if let index = segments.firstIndex(where: { $0.sequence == video.sequence }) {
            return (index, segments[index].start)
        }
        // Not listed: ahead of the audio's window (it lags), or behind it (it starts at its first).
        let ahead = video.sequence - last.sequence
        if ahead > 0 {
            return (segments.count + ahead - 1, last.start + last.duration + Double(ahead - 1) * audio.targetDuration)
        }
        let behind = segments[0].sequence - video.sequence
        return (0, segments[0].start - Double(behind) * audio.targetDuration)
    }
}

extension StreamSession {
    /// The live audio reloader's step: waits (``LivePlaylist/reloadWait(_:staleReloads:now:byClock:)`` of the audio
    /// playlist), then ``reloadLiveAudioOnce()``. Returns false once the session is closed, the audio playlist
    /// ended, or it was given up on.
    func reloadLiveAudio() -> Bool {
        let now = wallClock()
        let wait = withState { s -> Double? in
            guard !s.closed, let audio = s.audio, audio.isLive, !audio.playlist.hasEnd, audio.liveFailure == nil
            else { return nil }
            return LivePlaylist.reloadWait(audio.playlist, staleReloads: audio.staleReloads, now: now)
        }
        guard let wait else { return false }
        sleep(seconds: wait)
        return reloadLiveAudioOnce()
    }

    /// Reloads the live audio rendition's playlist past the cache and appends what is new, dropping what falls
    /// behind its retained window. Returns whether reloads go on (false once closed, ended, or given up: six
    /// reloads in a row with nothing new or failing, `.timedOut` or the loader's error naming the audio playlist).
    func reloadLiveAudioOnce() -> Bool {
        guard let url = withState({ s in s.audio.flatMap { $0.isLive ? $0.url : nil } }) else { return false }
        loading.cache.remove(url)
        let reloaded: Result<MediaPlaylist, MediaError>
        do throws(MediaError) {
            reloaded = .success(try ManifestLoader.playlist(.playlist(url: url), loading: loading))
        } catch {
            reloaded = .failure(error)
        }
        let keepGoing = withState { s -> Bool in
            guard !s.closed, var audio = s.audio else { return false }
            switch reloaded {
            case .success(let playlist):
                let (merged, added) = LivePlaylist.merge(audio.playlist, playlist)
                audio.playlist = merged
                audio.staleReloads = added > 0 ? 0 : audio.staleReloads + 1
                audio.trimLiveWindow()
            case .failure(let error):
                audio.staleReloads += 1
                if audio.staleReloads >= Self.maximumStaleReloads { audio.liveFailure = error }
            }
            if audio.staleReloads >= Self.maximumStaleReloads, audio.liveFailure == nil {
                audio.liveFailure = MediaError(
                    .timedOut, url: url, operation: .read,
                    reason: "the audio rendition's live playlist brought no new segment in "
                        + "\(Self.maximumStaleReloads) reloads")
            }
            s.audio = audio
            s.generation += 1
            return !audio.playlist.hasEnd && audio.liveFailure == nil
        }
        signal()
        return keepGoing
    }

    /// The audio reader's segment `index`, timed from where the play started: for a live rendition, once a reload
    /// lists it (waiting for it); nil past the last one (of a rendition with an end), or once the session closed.
    /// - Throws: a live rendition given up on (``reloadLiveAudioOnce()``); `.readFailed` naming the audio playlist
    ///   for a segment dropped from its retained window (a reader left far behind).
    func audioSegment(reading index: Int) throws(MediaError) -> Segment? {
        while true {
            let (ready, failure, generation) = withState { s -> (Bool, MediaError?, UInt64) in
                guard let audio = s.audio, audio.isLive, !s.closed else { return (true, nil, s.generation) }
                let listed = index < audio.endIndex || audio.playlist.hasEnd
                return (listed, listed ? nil : audio.liveFailure, s.generation)
            }
            if ready { break }
            if let failure { throw failure }
            waitForChange(after: generation)
        }
        let dropped = withState { s -> MediaError? in
            guard let audio = s.audio, audio.isLive, index < audio.firstIndex else { return nil }
            return MediaError(
                .readFailed, url: audio.url, operation: .read,
                reason: "the audio fell behind the live window: segment \(index) was dropped (the session keeps "
                    + "\(Self.liveSegmentLimit) segments; it keeps from \(audio.firstIndex) on)")
        }
        if let dropped { throw dropped }
        return audioSegment(at: index)
    }

    /// How many audio segments the session keeps now: listed, and in its records per segment (downloads, segments
    /// entered), for tests of the bound.
    var retainedAudioCounts: (listed: Int, records: Int) {
        withState { s in
            guard let audio = s.audio else { return (0, 0) }
            return (audio.playlist.segments.count, audio.downloaded.count + audio.entered.count)
        }
    }
}

extension StreamSession.AudioState {
    /// Drops what a live rendition keeps behind its retained window, as the video's
    /// (``StreamSession/State/trimLiveWindow()``): the segments more than ``StreamSession/liveSegmentsKeptBehind``
    /// behind the audio reader's, and past ``StreamSession/liveSegmentLimit`` in all the oldest (the last one listed
    /// always kept), with their records.
    mutating func trimLiveWindow() {
        guard isLive, !playlist.segments.isEmpty else { return }
        let keepFrom = StreamSession.liveWindowStart(reader: readerIndex, first: firstIndex, end: endIndex)
        guard keepFrom > firstIndex else { return }
        playlist.segments.removeFirst(keepFrom - firstIndex)
        playlist.mediaSequence = playlist.segments[0].sequence
        firstIndex = keepFrom
        downloaded = downloaded.filter { $0 >= keepFrom }
        entered = entered.filter { $0 >= keepFrom }
        downloadIndex = max(downloadIndex, keepFrom)
    }
}

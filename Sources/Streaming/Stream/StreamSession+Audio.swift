import Foundation
import Loading
import MediaCore

/// The audio rendition played beside the variants (``StreamSession/audioRendition``): its segments, read by a
/// stream of its own (``SegmentedStream/init(audioOf:)``) and downloaded ahead of that reader on the session's
/// download thread, between the variants' segments, up to the same forward buffer. One rendition for the whole play
/// (no audio ABR): its segments are independent of the variants' (their own durations and boundaries).
extension StreamSession {
    struct AudioState {
        /// Its segments: all of a VOD rendition's; of a live one, the retained window of those loaded so far
        /// (segment index `i` is `playlist.segments[i - firstIndex]`, times on from the first load's).
        var playlist: MediaPlaylist
        /// Its playlist's URL (reloaded when live; errors name it).
        var url: String
        /// The audio reader's segment, the next one to download ahead, the downloads done and the segments the
        /// reader entered (fetched by it).
        var readerIndex = 0
        var downloadIndex = 0
        var downloaded: Set<Int> = []
        var entered: Set<Int> = []
        var downloading: (index: Int, source: RemoteByteSource)?
        /// Live: the index of `playlist.segments[0]` (segments dropped before it), the reader's first segment (the
        /// one matching the video's first, ``LivePlaylist/audioStart(in:matching:)``), where the play's time 0 is
        /// on its timeline, the reloads in a row that brought nothing new, and why a reader waiting gives up.
        var isLive = false
        var firstIndex = 0
        var startIndex = 0
        var origin = 0.0
        var staleReloads = 0
        var liveFailure: MediaError?

        /// The segments of the rendition at `media` (its playlist loaded: blocking). In a live play (`videoStart`:
        /// the video's first segment played) its reader starts at the segment matching it.
        /// - Throws: the loader's errors naming the playlist; `.malformedManifest` for a playlist without segments or
        ///   one that is live when the presentation's is not.
        static func load(
            _ media: MediaReference, loading: RemoteLoading, videoStart: Segment? = nil
        ) throws(MediaError) -> AudioState {
            let playlist = try ManifestLoader.playlist(media, loading: loading)
            let url: String
            switch media {
            case .playlist(let playlistURL), .indexed(let playlistURL, _, _): url = playlistURL
            case .segments(let listed): url = listed.segments.first?.url ?? ""
            }
            // A live presentation's may have ended since its variant's playlist was loaded.
            guard !playlist.segments.isEmpty, playlist.hasEnd || videoStart != nil else {
                throw MediaError(
                    .malformedManifest, url: url, operation: .probe,
                    reason: playlist.segments.isEmpty
                        ? "the audio rendition's playlist lists no segment"
                        : "the audio rendition's playlist has no end, its presentation's has")
            }
            var audio = AudioState(playlist: playlist, url: url)
            if let videoStart {
                let start = LivePlaylist.audioStart(in: playlist, matching: videoStart)
                audio.isLive = true
                audio.startIndex = start.index
                audio.readerIndex = start.index
                audio.downloadIndex = start.index
                audio.origin = start.origin
            }
            return audio
        }

        /// One past the index of the last segment listed.
        var endIndex: Int { firstIndex + playlist.segments.count }

        /// Segment `index` (nil when not listed, or dropped from a live window).
        func segment(_ index: Int) -> Segment? {
            let position = index - firstIndex
            return position >= 0 && position < playlist.segments.count ? playlist.segments[position] : nil
        }

        /// Seconds of audio downloaded ahead of the reader's segment, in a row.
        var secondsAhead: Double {
            var seconds = 0.0
            var index = readerIndex + 1
            while let segment = segment(index), downloaded.contains(index) {
                seconds += segment.duration
                index += 1
            }
            return seconds
        }

        /// Where the audio held from the reader's segment on ends, in seconds of the play (0: where it started).
        var heldEnd: Double {
            guard let reading = segment(readerIndex) else {
                return (playlist.segments.last.map { $0.start + $0.duration } ?? 0) - origin
            }
            return reading.start + reading.duration + secondsAhead - origin
        }
    }

    /// Segment `index` of the audio rendition, timed from where the play started; nil past its last one listed (or
    /// without an audio rendition).
    func audioSegment(at index: Int) -> Segment? {
        withState { s in
            guard let audio = s.audio, var segment = audio.segment(index) else { return nil }
            segment.start -= audio.origin
            return segment
        }
    }

    /// The audio reader's first segment: 0, or a live rendition's segment matching the video's first.
    var audioStartIndex: Int { withState { $0.audio?.startIndex ?? 0 } }

    /// The index of the audio rendition's segment that holds `seconds` (from where the play started).
    func audioIndex(containing seconds: Double) -> Int {
        withState { s in
            guard let audio = s.audio else { return 0 }
            let position = audio.playlist.segments.lastIndex { $0.start - audio.origin <= seconds + 1e-6 }
            return audio.firstIndex + (position ?? 0)
        }
    }

    /// The audio reader starts segment `index`: the audio downloads move ahead of it (it fetches this one itself
    /// when no download has begun it).
    func audioReaderEntered(_ index: Int) {
        withState { s in
            guard s.audio != nil else { return }
            s.audio?.readerIndex = index
            s.audio?.entered.insert(index)
            if let next = s.audio?.downloadIndex, next <= index { s.audio?.downloadIndex = index + 1 }
            s.audio?.trimLiveWindow()
            s.generation += 1
        }
        signal()
    }

    /// The audio reader moved to segment `index` (a seek): its downloads start over after it.
    func audioRepositioned(to index: Int) {
        let stale = withState { s -> RemoteByteSource? in
            guard s.audio != nil else { return nil }
            s.audio?.readerIndex = index
            s.audio?.downloadIndex = index + 1
            s.generation += 1
            guard let downloading = s.audio?.downloading, downloading.index != index else { return nil }
            s.audio?.downloading = nil
            return downloading.source
        }
        stale?.close()
        signal()
    }

    /// Stops the audio download under way (the session closes).
    func closeAudioDownload() {
        let source = withState { s -> RemoteByteSource? in
            defer { s.audio?.downloading = nil }
            return s.audio?.downloading?.source
        }
        source?.close()
    }

    /// The download thread's audio step: the audio rendition's next segment, read through the cache (the reader
    /// of the same segment joins its fetch), when less than ``forwardSeconds`` of audio are held ahead of the audio
    /// reader and the audio held ends no later than the video held (or the video needs nothing). Returns whether
    /// it took one (a failed download is not tried again: the reader meets the failure and reports it).
    func downloadAudioIfDue() -> Bool {
        let next = withState { s -> (index: Int, segment: Segment)? in
            guard !s.closed, var audio = s.audio else { return nil }
            while audio.downloaded.contains(audio.downloadIndex) || audio.entered.contains(audio.downloadIndex) {
                audio.downloadIndex += 1
            }
            s.audio = audio
            guard let segment = audio.segment(audio.downloadIndex), audio.secondsAhead < forwardSeconds else {
                return nil
            }
            let videoWants = s.downloadIndex < s.endIndex && bufferAhead(s) < forwardSeconds
            if videoWants, let reading = s.timelineSegment(s.readerIndex) {
                let videoEnd = reading.start + reading.duration + bufferAhead(s) - s.origin
                guard audio.heldEnd <= videoEnd else { return nil }
            }
            let index = audio.downloadIndex
            s.audio?.downloadIndex = index + 1
            return (index, segment)
        }
        guard let (index, segment) = next else { return false }
        if let initialization = segment.initialization {
            _ = try? ResourceReader.bytes(initialization.url, range: initialization.byteRange, loading: loading)
        }
        let source = loading.source(segment.url, priority: priority)
        defer { source.close() }
        let proceed = withState { s -> Bool in
            guard !s.closed, s.audio != nil else { return false }
            s.audio?.downloading = (index, source)
            return true
        }
        guard proceed else { return false }
        let completed = drain(source, range: segment.byteRange) { _, _ in false }
        withState { s in
            // Stopped by a seek or the end (its source closed: its reads came to an end early).
            guard s.audio?.downloading?.source === source else { return }
            s.audio?.downloading = nil
            if completed { s.audio?.downloaded.insert(index) }
            s.generation += 1
        }
        return true
    }
}

import Foundation
import Loading
import MediaCore

/// The audio rendition played beside the variants (``StreamSession/audioRendition``): its segments, read by a
/// stream of its own (``SegmentedStream/init(audioOf:)``) and downloaded ahead of that reader on the session's
/// download thread, between the variants' segments, up to the same forward buffer. One rendition for the whole play
/// (no audio ABR): its segments are independent of the variants' (their own durations and boundaries).
extension StreamSession {
    struct AudioState {
        var playlist: MediaPlaylist
        /// The audio reader's segment, the next one to download ahead, the downloads done and the segments the
        /// reader entered (fetched by it).
        var readerIndex = 0
        var downloadIndex = 0
        var downloaded: Set<Int> = []
        var entered: Set<Int> = []
        var downloading: (index: Int, source: RemoteByteSource)?

        /// The segments of the rendition at `media` (its playlist loaded: blocking).
        /// - Throws: the loader's errors naming the playlist; `.malformedManifest` for a playlist without segments or
        ///   one that is live (an audio rendition of a VOD presentation is VOD too).
        static func load(_ media: MediaReference, loading: RemoteLoading) throws(MediaError) -> AudioState {
            let playlist = try ManifestLoader.playlist(media, loading: loading)
            let url: String
            switch media {
            case .playlist(let playlistURL), .indexed(let playlistURL, _, _): url = playlistURL
            case .segments(let listed): url = listed.segments.first?.url ?? ""
            }
            guard !playlist.segments.isEmpty, playlist.hasEnd else {
                throw MediaError(
                    .malformedManifest, url: url, operation: .probe,
                    reason: playlist.segments.isEmpty
                        ? "the audio rendition's playlist lists no segment"
                        : "the audio rendition's playlist has no end, its presentation's has")
            }
            return AudioState(playlist: playlist)
        }

        /// Seconds of audio downloaded ahead of the reader's segment, in a row.
        var secondsAhead: Double {
            let segments = playlist.segments
            var seconds = 0.0
            var index = readerIndex + 1
            while index < segments.count, downloaded.contains(index) {
                seconds += segments[index].duration
                index += 1
            }
            return seconds
        }

        /// Where the audio held from the reader's segment on ends, in seconds of the rendition's timeline.
        var heldEnd: Double {
            guard readerIndex < playlist.segments.count else { return playlist.duration }
            let reading = playlist.segments[readerIndex]
            return reading.start + reading.duration + secondsAhead
        }
    }

    /// Segment `index` of the audio rendition; nil past its last one (or without an audio rendition).
    func audioSegment(at index: Int) -> Segment? {
        withState { s in
            guard let audio = s.audio, index >= 0, index < audio.playlist.segments.count else { return nil }
            return audio.playlist.segments[index]
        }
    }

    /// The index of the audio rendition's segment that holds `seconds` (from its start).
    func audioIndex(containing seconds: Double) -> Int {
        withState { s in s.audio?.playlist.segments.lastIndex { $0.start <= seconds + 1e-6 } ?? 0 }
    }

    /// The audio reader starts segment `index`: the audio downloads move ahead of it (it fetches this one itself
    /// when no download has begun it).
    func audioReaderEntered(_ index: Int) {
        withState { s in
            guard s.audio != nil else { return }
            s.audio?.readerIndex = index
            s.audio?.entered.insert(index)
            if let next = s.audio?.downloadIndex, next <= index { s.audio?.downloadIndex = index + 1 }
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
            let segments = audio.playlist.segments
            guard audio.downloadIndex < segments.count, audio.secondsAhead < forwardSeconds else { return nil }
            let videoSegments = s.reference.segments
            let videoWants = s.downloadIndex < videoSegments.count && bufferAhead(s) < forwardSeconds
            if videoWants, s.readerIndex < videoSegments.count {
                let reading = videoSegments[s.readerIndex]
                let videoEnd = reading.start + reading.duration + bufferAhead(s) - s.origin
                guard audio.heldEnd <= videoEnd else { return nil }
            }
            let index = audio.downloadIndex
            s.audio?.downloadIndex = index + 1
            return (index, segments[index])
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

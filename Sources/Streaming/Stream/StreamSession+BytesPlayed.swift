import Loading
import MediaCore

/// What playing a presentation up to a point needed, in bytes: the counterpart of a progressive file's byte offset
/// at its playhead (its byte timeline), for a feed's account of the bytes played.
extension StreamSession {
    /// A resource, or a byte range of one, that playing needed.
    struct PlayedResource: Hashable {
        var url: String
        var range: ByteRange?
    }

    /// The bytes playing needed up to `seconds` of item time (from where the play started; `.infinity`: all the
    /// segments decided so far), counted as a progressive file's are (what lies before its playhead, the part
    /// played prorated): the manifest; for each variant a segment before `seconds` was decided in, its media
    /// playlist (a DASH file's segment index); those segments, each of the variant decided for it, with their
    /// initialization sections and keys; the segment that holds `seconds` by the part of its duration before it
    /// (its initialization section and key whole); the audio rendition played beside the variants likewise (its
    /// playlist, and its segments by its own timeline). A resource counted once however many segments need it.
    /// Sizes are a byte range's, else the resource's length as the byte cache knows it (0 when it knows none).
    public func bytesPlayed(upTo seconds: Double) -> Int64 {
        let parts = withState { s in playedResources(upTo: seconds, s) }
        var total: Int64 = 0
        for (resource, fraction) in parts {
            let length = resource.range?.length ?? loading.cache.knownLength(of: resource.url) ?? 0
            total += fraction >= 1 ? length : Int64((Double(length) * fraction).rounded(.down))
        }
        return total
    }

    /// The resources behind ``bytesPlayed(upTo:)``, each with the part of it counted (the largest asked).
    private func playedResources(upTo seconds: Double, _ s: State) -> [PlayedResource: Double] {
        var parts: [PlayedResource: Double] = [:]
        func add(_ url: String, _ range: ByteRange? = nil, _ fraction: Double = 1) {
            let key = PlayedResource(url: url, range: range)
            parts[key] = max(parts[key] ?? 0, fraction)
        }
        func addListing(_ media: MediaReference) {
            switch media {
            case .playlist(let url): add(url)
            case .indexed(let url, _, let index): add(url, index)
            case .segments: break
            }
        }
        func addSegment(_ segment: Segment, _ fraction: Double) {
            if let initialization = segment.initialization { add(initialization.url, initialization.byteRange) }
            if let key = segment.key { add(key.url) }
            add(segment.url, segment.byteRange, fraction)
        }
        func playedFraction(start: Double, duration: Double) -> Double? {
            guard start < seconds else { return nil }
            return duration > 0 ? min((seconds - start) / duration, 1) : 1
        }
        add(url)
        var variantsPlayed = Set<String>()
        for index in max(s.startIndex, s.firstIndex)..<s.endIndex {
            guard let listed = s.timelineSegment(index),
                let fraction = playedFraction(start: listed.start - s.origin, duration: listed.duration)
            else { break }
            guard let id = s.decisions[index], let playlist = s.playlists[id],
                let segment = s.isLive
                    ? playlist.segments.first(where: { LivePlaylist.matches($0, listed) })
                    : playlist.segments.indices.contains(index) ? playlist.segments[index] : nil
            else { continue }
            variantsPlayed.insert(id)
            addSegment(segment, fraction)
        }
        for variant in presentation.variants where variantsPlayed.contains(variant.id) { addListing(variant.media) }
        if let audio = s.audio, !variantsPlayed.isEmpty {
            if let media = audioRendition?.media { addListing(media) }
            for segment in audio.playlist.segments {
                guard let fraction = playedFraction(start: segment.start, duration: segment.duration) else { break }
                addSegment(segment, fraction)
            }
        }
        return parts
    }
}

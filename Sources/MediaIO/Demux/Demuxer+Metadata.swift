import CFFmpeg

extension Demuxer {
    /// The file's tags, chapters and artwork (the first attached picture).
    public var metadata: MediaMetadata {
        var tags: [(key: String, value: String)] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(context.pointee.metadata, "", entry, AV_DICT_IGNORE_SUFFIX) {
            tags.append((String(cString: next.pointee.key).lowercased(), String(cString: next.pointee.value)))
            entry = next
        }
        var chapters: [MediaMetadata.Chapter] = []
        for i in 0..<Int(context.pointee.nb_chapters) {
            guard let chapter = context.pointee.chapters[i] else { continue }
            let tb = chapter.pointee.time_base
            let time = { (ticks: Int64) in MediaTime(value: ticks * Int64(tb.num), timescale: tb.den) }
            let title = av_dict_get(chapter.pointee.metadata, "title", nil, 0).map { String(cString: $0.pointee.value) }
            chapters.append(
                MediaMetadata.Chapter(start: time(chapter.pointee.start), end: time(chapter.pointee.end), title: title))
        }
        var artwork: MediaMetadata.Artwork?
        if let track = tracks.first(where: { isAttachedPicture($0.index) }) {
            let packet = stream(track.index).pointee.attached_pic
            if let data = packet.data, packet.size > 0 {
                artwork = MediaMetadata.Artwork(
                    codec: track.codec, width: track.width ?? 0, height: track.height ?? 0,
                    bytes: Array(UnsafeBufferPointer(start: data, count: Int(packet.size))))
            }
        }
        return MediaMetadata(tags: tags, chapters: chapters, artwork: artwork)
    }

    /// Whether stream `index` is an attached picture (cover art), not a video.
    public func isArtwork(_ index: Int) -> Bool { isAttachedPicture(index) }
}

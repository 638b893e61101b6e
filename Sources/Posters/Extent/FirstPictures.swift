import MediaIO

/// How many bytes from a video's start its first pictures need (its header and first keyframe, with what is stored
/// before them), read from the container's index in a header held already: what a feed fetches of a video it may
/// show, and what a poster of its first frame reads.
public enum FirstPictures {
    /// The byte count from `header` (the file's first bytes; `totalLength`, the whole file's length, when known) to
    /// the end of the video samples of the first `seconds` (0.2: the first pictures), or nil when the header does
    /// not tell: its index lies further in or at the end, or the container has no sample index with sizes
    /// (Matroska, MPEG-TS), or it is not a video.
    public static func bytes(header: [UInt8], totalLength: Int64?, url: String, seconds: Double = 0.2) -> Int64? {
        bytes(header: header, totalLength: totalLength, url: url) { $0.firstPicturesEnd(within: seconds) }
    }

    /// The byte count from `header` to the end of the samples the first frame alone needs (its keyframe and the
    /// reordering depth after it, ``Demuxer/firstFrameEnd()``): what a poster of the first frame reads. Nil as for
    /// ``bytes(header:totalLength:url:seconds:)``.
    public static func firstFrameBytes(header: [UInt8], totalLength: Int64?, url: String) -> Int64? {
        bytes(header: header, totalLength: totalLength, url: url) { $0.firstFrameEnd() }
    }

    private static func bytes(
        header: [UInt8], totalLength: Int64?, url: String, end: (Demuxer) -> Int64?
    ) -> Int64? {
        guard !header.isEmpty,
            let demuxer = try? Demuxer(url: url, source: MemoryByteSource(header, totalLength: totalLength)),
            let end = end(demuxer)
        else { return nil }
        // Past the header: its index came first, before the samples it names.
        if end > header.count { return end }
        // Within it, the index may lie after them (an MP4 whose moov is at its end needs that end too): the bytes
        // up to `end` must open alone.
        let alone = MemoryByteSource(Array(header.prefix(Int(end))), totalLength: totalLength)
        return (try? Demuxer(url: url, source: alone)) == nil ? nil : end
    }
}

import CFFmpeg

extension Demuxer {
    /// Where the bytes a video's first pictures need end, from the container's sample index: the end of the last
    /// video sample stored within `seconds` of the first (the first keyframe, and the few a decoder with reordering
    /// takes in before it gives out its first picture), which is also past every sample of other streams stored
    /// before them. Nil without a video track or a sample index with sizes (Matroska's cues name keyframes only,
    /// MPEG-TS has none).
    public func firstPicturesEnd(within seconds: Double = 0.2) -> Int64? {
        videoSamplesEnd { stream, first, index, entry in
            let base = stream.pointee.time_base
            guard base.num > 0, base.den > 0 else { return nil }
            let last = first.timestamp + Int64(seconds * Double(base.den) / Double(base.num))
            return index == 0 || entry.timestamp <= last
        }
    }

    /// The end of the video samples at the start of the sample index that `includes` takes (true: take it and go
    /// on; false: stop; nil: the index cannot tell), and of every sample stored before them; nil without a video
    /// track, an index, or positions and sizes in it.
    private func videoSamplesEnd(
        _ includes: (UnsafeMutablePointer<AVStream>, AVIndexEntry, Int, AVIndexEntry) -> Bool?
    ) -> Int64? {
        guard let track = videoTrack else { return nil }
        let stream = stream(track.index)
        let count = Int(avformat_index_get_entries_count(stream))
        guard count > 0, let first = avformat_index_get_entry(stream, 0) else { return nil }
        var end: Int64 = 0
        for index in 0..<count {
            guard let entry = avformat_index_get_entry(stream, Int32(index)) else { break }
            guard let take = includes(stream, first.pointee, index, entry.pointee) else { return nil }
            if !take { break }
            guard entry.pointee.pos >= 0, entry.pointee.size > 0 else { return nil }
            end = max(end, entry.pointee.pos + Int64(entry.pointee.size))
        }
        return end > 0 ? end : nil
    }
}

extension Demuxer {
    /// Where the bytes the first frame alone needs end, from the container's sample index: the end of the first
    /// keyframe and of the video samples after it that a decoder reads before it shows that frame (the stream's
    /// reordering depth, at least one: what ``VideoFrameReader/decodeFirstFrameAlone()`` reads), and of every sample
    /// of other streams stored before them. Nil as for ``firstPicturesEnd(within:)``.
    public func firstFrameEnd() -> Int64? {
        videoSamplesEnd { stream, _, index, _ in
            let delay = Int(stream.pointee.codecpar.pointee.video_delay)
            return index <= min(max(delay, 1), VideoFrameReader.plannerPacketsPastTarget)
        }
    }
}

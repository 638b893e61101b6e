import CFFmpeg

extension VideoFrameReader {
    /// Decodes the first frame on its own, before `nextFrame()` is called: the keyframe that opens the stream, sent
    /// alone to a decoder without frame threads (slice threads only: a frame cut in slices is still decoded in
    /// parallel) that is drained at once. With frame threading the main decoder returns its first frame only after
    /// one packet per thread (plus the stream's reordering delay) has gone in, about three times the work; this is
    /// what makes a player's first frame appear sooner.
    ///
    /// `nextFrame()` then goes on with the frame after it: the main decoder decodes the stream from the same
    /// keyframe (its packets are kept, not read again) and its copy of this frame is skipped. Frames are
    /// bit-identical either way.
    ///
    /// Returns nil, changing nothing a later `nextFrame()` returns, when the shortcut does not apply: the reader
    /// was used already, the stream does not open with a keyframe that comes first in presentation order too, or
    /// anything fails (reading, decoding: the main decoder then meets the same problem and reports it).
    public func decodeFirstFrameAlone() -> VideoFrame? {
        guard packetsRead == 0, lookahead.isEmpty, ready.isEmpty, pushedBack == nil, !demuxerEnded else { return nil }
        // The keyframe and enough packets after it to know that none of them is shown before it. Frames shown before
        // an opening keyframe (an open group of pictures' leading frames) come right after it in decoding order, so
        // the stream's reordering depth (at least one packet) finds them; reading more only delays the first frame
        // (a remote file's first frame waits for those bytes).
        let past = min(
            max(Int(demuxer.stream(track.index).pointee.codecpar.pointee.video_delay), 1), Self.plannerPacketsPastTarget
        )
        while lookahead.count <= past {
            guard let packet = try? readVideoPacketFromFile() else { break }
            lookahead.append(packet)
        }
        guard let key = lookahead.first, let keyTicks = key.pts,
            lookahead.allSatisfy({ $0.pts.map { $0 >= keyTicks } ?? false })
        else { return nil }
        return decodeNextKeyframeAlone()
    }

    /// Decodes the next packet the main decoder will be given, a keyframe, alone (as `decodeFirstFrameAlone()`
    /// does), and makes the main decoder skip its frames up to and including it: those shown before the keyframe
    /// (an open group of pictures' leading frames) and its copy. Nil, changing nothing, when the packet is not a
    /// keyframe with a timestamp or it does not decode alone to a frame with that timestamp.
    func decodeNextKeyframeAlone() -> VideoFrame? {
        guard lookaheadHead < lookahead.count, ready.count == readyHead, pushedBack == nil else { return nil }
        let key = lookahead[lookaheadHead]
        guard key.isKeyframe, let keyTicks = key.pts,
            let alone = try? Decoder(demuxer: demuxer, stream: track.index, slicesOnly: true),
            case .accepted = alone.send(key), case .accepted = alone.send(nil)
        else { return nil }
        while true {
            switch try? alone.receive() {
            case .frame(let raw)?:
                let previous = lastTimestamp
                let frame = makeFrame(raw)
                guard frame.timestamp == keyTicks else {
                    lastTimestamp = previous
                    return nil
                }
                skipThroughTicks = keyTicks
                return frame
            case .damaged?:
                continue
            case .needsInput?, .endOfStream?, nil:
                return nil
            }
        }
    }
}

import CFFmpeg

extension VideoFrameReader {
    /// Packets above the target that the planner reads ahead before trusting its choice of target packet:
    /// more than any decoder's reordering depth.
    static let plannerPacketsPastTarget = 8
    /// The most packets the planner holds; past this it still skips safely, only less.
    static let plannerPacketLimit = 4096

    /// Seeks to `time` (measured from the start of the media). Returns the frame on screen at that time (`exact`) or
    /// the keyframe at or before it (`keyframe`); `nextFrame()` then continues with the frames after it.
    ///
    /// An exact seek decodes forward from the keyframe before the target, and does not decode at all the frames
    /// before the target that no other frame references: the landing frame stays bit-identical to a full decode.
    public func seek(to time: MediaTime, mode: SeekMode) throws(MediaError) -> SeekLanding {
        try seek(to: time, mode: mode, singleFrame: false)
    }

    /// The frame on screen at `time` (`exact`) or the keyframe at or before it, when only that one frame is wanted
    /// (a thumbnail, `playctl frame`): once the landing frame's packet is sent the decoder drains instead of being
    /// fed the packets after it, which saves decoding them. `nextFrame()` then returns nil until the next seek.
    public func frame(at time: MediaTime, mode: SeekMode) throws(MediaError) -> SeekLanding {
        try seek(to: time, mode: mode, singleFrame: true)
    }

    private func seek(to time: MediaTime, mode: SeekMode, singleFrame: Bool) throws(MediaError) -> SeekLanding {
        let target = ticks(of: time)
        // The main decoder is flushed only once it is needed: flushing waits for the frames its threads have in
        // flight, which meanwhile finish on their own while the demuxer is positioned and, when the seek lands on
        // a keyframe, that keyframe is decoded alone.
        resetPipeline()
        var stats = SeekStatistics()
        let readBefore = packetsRead
        let frame: VideoFrame?
        do throws(MediaError) {
            try positionDemuxer(atOrBefore: target)
            let plan = mode == .exact ? try planPreroll(target: target) : nil
            let alone = landAloneOnKeyframe(plan: plan, singleFrame: singleFrame)
            decoder.flush()
            if let alone {
                stats.framesDecoded = 1
                frame = alone
            } else if let plan {
                frame = try landExactly(on: target, plan: plan, singleFrame: singleFrame, &stats)
            } else {
                frame = try landOnKeyframe(&stats)
            }
        } catch {
            decoder.flush()
            throw error
        }
        stats.packetsRead = packetsRead - readBefore
        return SeekLanding(frame: frame, requested: time, statistics: stats)
    }

    /// The landing decoded alone (see `decodeNextKeyframeAlone()`), when it is the keyframe the demuxer is at: for
    /// every keyframe seek, and for an exact seek whose frame on screen at the target is that keyframe. (Not for a
    /// single-frame exact seek: draining the main decoder after that one packet is as quick, and what it wants.)
    private func landAloneOnKeyframe(plan: (skipBelow: Int64?, isComplete: Bool)?, singleFrame: Bool) -> VideoFrame? {
        if let plan {
            guard !singleFrame, plan.isComplete, let key = plan.skipBelow, lookaheadHead < lookahead.count,
                lookahead[lookaheadHead].pts == key
            else { return nil }
        }
        return decodeNextKeyframeAlone()
    }

    /// Seeks the demuxer so that its next video packet is a keyframe at or before `target` (or the first one).
    /// That packet is left in the look-ahead.
    func positionDemuxer(atOrBefore target: Int64) throws(MediaError) {
        let second = Int64(timeBase.den) / Int64(max(timeBase.num, 1))
        var seekTicks = target
        var backoff = max(second, 1)
        for _ in 0..<12 {
            let fromStart = seekTicks <= startTicks
            if fromStart {
                try demuxer.rewind()
            } else {
                try demuxer.seek(stream: track.index, toKeyframeAtOrBefore: seekTicks)
            }
            demuxerEnded = false
            lookahead.removeAll(keepingCapacity: true)
            lookaheadHead = 0
            var skipped = 0
            var first = try readVideoPacketFromFile()
            while let packet = first, !packet.isKeyframe, skipped < Self.plannerPacketLimit {
                skipped += 1
                first = try readVideoPacketFromFile()
            }
            if let packet = first, packet.isKeyframe {
                lookahead.append(packet)
                if fromStart || (packet.pts ?? target) <= target {
                    if demuxer.hasImpreciseSeeking { try skipToLastKeyframe(atOrBefore: target) }
                    return
                }
                seekTicks = min(seekTicks, packet.pts ?? seekTicks)
            } else if fromStart {
                return
            }
            seekTicks -= backoff
            backoff *= 2
        }
    }

    /// Demuxers that seek by bisecting timestamps (MPEG-TS) may land several keyframes early: read on (packets
    /// only, no decoding) until the decode timestamps pass the target, and keep only the last keyframe before it.
    private func skipToLastKeyframe(atOrBefore target: Int64) throws(MediaError) {
        while let last = lookahead.last, (last.dts ?? last.pts ?? target) <= target,
            lookahead.count < Self.plannerPacketLimit, let packet = try readVideoPacketFromFile()
        {
            lookahead.append(packet)
        }
        if let key = lookahead.lastIndex(where: { $0.isKeyframe && ($0.pts ?? Int64.max) <= target }), key > 0 {
            lookahead.removeFirst(key)
        }
    }

    private func landOnKeyframe(_ stats: inout SeekStatistics) throws(MediaError) -> VideoFrame? {
        let keyTicks = lookahead.first?.pts
        while let frame = try nextFrame() {
            stats.framesDecoded += 1
            if let keyTicks, frame.timestamp < keyTicks {
                stats.framesDiscarded += 1
                continue
            }
            return frame
        }
        return nil
    }

    private func landExactly(
        on target: Int64, plan: (skipBelow: Int64?, isComplete: Bool), singleFrame: Bool,
        _ stats: inout SeekStatistics
    ) throws(MediaError) -> VideoFrame? {
        skipBelowTicks = plan.skipBelow
        if singleFrame && plan.isComplete { drainAfterTicks = plan.skipBelow }
        defer { skipBelowTicks = nil }
        var candidate: VideoFrame?
        var decodedTicks = Set<Int64>()
        while let frame = try nextFrame() {
            stats.framesDecoded += 1
            decodedTicks.insert(frame.timestamp)
            if frame.timestamp <= target {
                if candidate != nil { stats.framesDiscarded += 1 }
                candidate = frame
                if plan.isComplete, frame.timestamp == plan.skipBelow { break }
            } else {
                if candidate == nil {
                    candidate = frame
                } else {
                    pushedBack = frame
                    stats.framesDecoded -= 1
                }
                break
            }
        }
        stats.framesSkipped = skippedTicks.subtracting(decodedTicks).count
        skippedTicks.removeAll()
        return candidate
    }

    /// Reads ahead from the keyframe to find the packet of the frame on screen at `target`.
    ///
    /// `skipBelow` is the greatest packet timestamp not after the target seen so far: any packet below it is not the
    /// target frame, so it need not be decoded unless other frames reference it. `isComplete` says the planner saw
    /// enough packets past the target to know that no later packet can be the target.
    private func planPreroll(target: Int64) throws(MediaError) -> (skipBelow: Int64?, isComplete: Bool) {
        var best: Int64?
        var past = 0
        var timestampsKnown = true
        for packet in lookahead[lookaheadHead...] { note(packet) }
        func note(_ packet: Packet) {
            guard let pts = packet.pts else {
                timestampsKnown = false
                return
            }
            if pts <= target { best = max(best ?? pts, pts) } else { past += 1 }
        }
        while past < Self.plannerPacketsPastTarget, lookahead.count < Self.plannerPacketLimit,
            let packet = try readVideoPacketFromFile()
        {
            lookahead.append(packet)
            note(packet)
        }
        guard timestampsKnown else { return (nil, false) }
        // Nothing at or before the target (it is before the first frame): the first frame is the landing.
        let complete = past >= Self.plannerPacketsPastTarget || demuxerEnded
        return (best, complete && best != nil)
    }
}

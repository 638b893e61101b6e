import CFFmpeg

/// Decodes the first video track of a media file, frame by frame in presentation order, with keyframe and exact seeks.
///
/// Owns its demuxer and decoder. Blocking: call it from a thread of its own (the player's decode thread, the CLI's
/// main thread), never from Swift's cooperative pool. `@unchecked Sendable` because it may be moved to such a
/// thread; it must be used by one thread at a time.
public final class VideoFrameReader: @unchecked Sendable {
    public let demuxer: Demuxer
    public let track: TrackInfo
    let decoder: Decoder
    let startTicks: Int64
    let timeBase: AVRational
    /// Which packets an exact seek's pre-roll may leave out.
    let disposable: DisposablePackets

    /// Packets read from the demuxer but not yet sent to the decoder (the seek planner reads ahead).
    var lookahead: [Packet] = []
    var lookaheadHead = 0
    /// Decoded frames not yet returned, in presentation order.
    var ready: [VideoFrame] = []
    var readyHead = 0
    var demuxerEnded = false
    var drainSent = false
    var decoderEnded = false
    var lastTimestamp: Int64?
    /// A frame the seek looked at but did not use: the next one `nextFrame()` returns.
    var pushedBack: VideoFrame?
    /// While pre-rolling an exact seek: packets below this timestamp are sent with non-reference skipping.
    var skipBelowTicks: Int64?
    /// A single-frame seek: once the packet with this timestamp is sent, the decoder drains (no more input).
    var drainAfterTicks: Int64?
    /// Set when a keyframe was decoded alone (the first frame, a keyframe landing): the main decoder's frames up to
    /// this timestamp are not returned (that keyframe was, and frames shown before it are not wanted).
    var skipThroughTicks: Int64?
    /// Timestamps of the packets sent with skipping on, to count what was not decoded.
    var skippedTicks = Set<Int64>()
    /// Packets the decoder rejected as damaged, and frames it could not decode, since the reader was opened.
    public private(set) var decodeErrorCount = 0
    /// The last decode error FFmpeg reported, if any.
    public private(set) var lastDecodeError: MediaError?
    /// Packets (video) read from the file since opening.
    public private(set) var packetsRead = 0

    /// Opens `url` for video decoding. `threads` 0 lets FFmpeg choose, as the ffmpeg CLI does.
    public convenience init(url: String, threads: Int = 0) throws(MediaError) {
        try self.init(demuxer: Demuxer(url: url), threads: threads)
    }

    /// Decodes the first video track of an open demuxer.
    public init(demuxer: Demuxer, threads: Int = 0) throws(MediaError) {
        guard let track = demuxer.videoTrack else {
            throw MediaError(.noDecodableStream, url: demuxer.url, operation: .probe, reason: "no video track")
        }
        guard track.isDecodable else { throw FileCheck.undecodable(demuxer, tracks: [track]) }
        self.demuxer = demuxer
        self.track = track
        self.decoder = try Decoder(demuxer: demuxer, stream: track.index, threads: threads)
        self.startTicks = demuxer.startTicks(stream: track.index)
        self.timeBase = demuxer.stream(track.index).pointee.time_base
        self.disposable = DisposablePackets(parameters: demuxer.stream(track.index).pointee.codecpar)
    }

    /// The next frame in presentation order, or nil at the end of the stream.
    public func nextFrame() throws(MediaError) -> VideoFrame? {
        if let frame = pushedBack {
            pushedBack = nil
            return frame
        }
        while true {
            if readyHead < ready.count {
                let frame = ready[readyHead]
                readyHead += 1
                if readyHead == ready.count || readyHead > 32 {
                    ready.removeFirst(readyHead)
                    readyHead = 0
                }
                if let skip = skipThroughTicks {
                    if frame.timestamp <= skip { continue }
                    skipThroughTicks = nil
                }
                return frame
            }
            guard try decodeMore() else { return nil }
        }
    }

    /// Runs the decoder one step: receives a frame into `ready`, or feeds it a packet. False at the end.
    func decodeMore() throws(MediaError) -> Bool {
        if decoderEnded { return false }
        switch try decoder.receive() {
        case .frame(let raw):
            ready.append(makeFrame(raw))
            return true
        case .endOfStream:
            decoderEnded = true
            return false
        case .needsInput:
            if let packet = try nextVideoPacket() {
                let skip = skipBelowTicks.map { below in !packet.isKeyframe && (packet.pts ?? below) < below } ?? false
                if skip, let pts = packet.pts { skippedTicks.insert(pts) }
                // A picture nothing references is not even sent: it would take a frame thread for nothing.
                if skip && disposable.isDisposable(packet) { return true }
                decoder.skipsNonReferenceFrames = skip
                try feed(packet)
                if let last = drainAfterTicks, packet.pts == last {
                    // A single-frame seek: the landing frame's packet is in; drain instead of feeding more.
                    drainAfterTicks = nil
                    lookahead.removeAll(keepingCapacity: true)
                    lookaheadHead = 0
                    demuxerEnded = true
                }
            } else if !drainSent {
                drainSent = true
                _ = decoder.send(nil)
            } else {
                decoderEnded = true
                return false
            }
            return true
        case .damaged(let code):
            recordDecodeError(code)
            return true
        }
    }

    /// Counts a packet or frame the decoder could not decode (it goes on with the next one).
    func recordDecodeError(_ code: Int32) {
        decodeErrorCount += 1
        lastDecodeError = MediaError(.decodeFailed, url: demuxer.url, operation: .decode, ffmpegCode: code)
    }

    /// Sends one packet, receiving frames first whenever the decoder's output is full.
    func feed(_ packet: Packet) throws(MediaError) {
        while true {
            switch decoder.send(packet) {
            case .accepted:
                return
            case .rejected(let code):
                recordDecodeError(code)
                return
            case .outputFull:
                switch try decoder.receive() {
                case .frame(let raw): ready.append(makeFrame(raw))
                case .damaged(let code): recordDecodeError(code)
                case .needsInput, .endOfStream: return
                }
            }
        }
    }

    /// The next packet of the video track: from the seek planner's look-ahead first, then from the file.
    func nextVideoPacket() throws(MediaError) -> Packet? {
        if lookaheadHead < lookahead.count {
            let packet = lookahead[lookaheadHead]
            lookaheadHead += 1
            if lookaheadHead == lookahead.count {
                lookahead.removeAll(keepingCapacity: true)
                lookaheadHead = 0
            }
            return packet
        }
        return try readVideoPacketFromFile()
    }

    func readVideoPacketFromFile() throws(MediaError) -> Packet? {
        if demuxerEnded { return nil }
        let packet = Packet()
        while try demuxer.read(into: packet) {
            if packet.streamIndex == track.index {
                packetsRead += 1
                return packet
            }
        }
        demuxerEnded = true
        return nil
    }

    func makeFrame(_ raw: UnsafeMutablePointer<AVFrame>) -> VideoFrame {
        var ts = raw.pointee.best_effort_timestamp
        if ts == playctl_nopts_value() { ts = raw.pointee.pts }
        if ts == playctl_nopts_value() {
            // No timestamp at all: continue from the previous frame by its duration.
            let step = raw.pointee.pkt_duration > 0 ? raw.pointee.pkt_duration : 1
            ts = (lastTimestamp ?? startTicks - step) + step
        }
        lastTimestamp = ts
        return VideoFrame(taking: raw, time: time(ofTicks: ts), timestamp: ts, track: track)
    }

    /// A stream timestamp as a time measured from the start of the media.
    func time(ofTicks ticks: Int64) -> MediaTime {
        MediaTime(value: (ticks - startTicks) * Int64(timeBase.num), timescale: timeBase.den)
    }

    /// A time measured from the start of the media as a stream timestamp (the greatest tick not after it).
    func ticks(of time: MediaTime) -> Int64 {
        guard time.isNumeric else { return time == .negativeInfinity ? Int64.min / 2 : Int64.max / 2 }
        let num = Int64(time.timescale) * Int64(timeBase.num)
        let value = time.value * Int64(timeBase.den)
        let floorDiv = value >= 0 ? value / num : -((-value + num - 1) / num)
        return startTicks + floorDiv
    }

    /// Forgets all reading state (before a seek). The decoder is left to the caller to flush before it is given a
    /// packet again: flushing waits for the frames its threads have in flight.
    func resetPipeline() {
        decoder.skipsNonReferenceFrames = false
        lookahead.removeAll(keepingCapacity: true)
        lookaheadHead = 0
        ready.removeAll(keepingCapacity: true)
        readyHead = 0
        demuxerEnded = false
        drainSent = false
        decoderEnded = false
        lastTimestamp = nil
        pushedBack = nil
        skipBelowTicks = nil
        drainAfterTicks = nil
        skipThroughTicks = nil
        skippedTicks.removeAll()
    }
}

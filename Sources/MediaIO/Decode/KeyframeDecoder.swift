import CFFmpeg

/// Decodes keyframes of a video one at a time, each from its own sample only: the demuxer is moved to the sample
/// (by the index, reading nothing), reads that one sample, and a decoder without frame threads decodes it alone and
/// is drained at once. What a seek bar's thumbnails need: a remote file pays for the keyframes, not for the
/// pictures between them. Used by one thread at a time.
public final class KeyframeDecoder: @unchecked Sendable {
    public let demuxer: Demuxer
    public let track: TrackInfo
    private let decoder: Decoder
    private let timeBase: AVRational
    private let startTicks: Int64

    /// A decoder of `demuxer`'s video track, which is the only stream it reads from now on.
    /// - Throws: `MediaError` naming the file when it has no video or its codec does not open.
    public init(demuxer: Demuxer) throws(MediaError) {
        guard let track = demuxer.videoTrack else {
            throw MediaError(.noDecodableStream, url: demuxer.url, operation: .probe, reason: "no video track")
        }
        guard track.isDecodable else { throw FileCheck.undecodable(demuxer, tracks: [track]) }
        self.demuxer = demuxer
        self.track = track
        decoder = try Decoder(demuxer: demuxer, stream: track.index, slicesOnly: true)
        timeBase = demuxer.stream(track.index).pointee.time_base
        startTicks = demuxer.startTicks(stream: track.index)
        demuxer.discardAllStreams(except: track.index)
    }

    /// The picture of `keyframe` (one of ``Demuxer/indexedKeyframes()``; `next` the keyframe after it, if any),
    /// reading that sample's bytes alone.
    /// - Throws: `MediaError` naming the file when the sample cannot be reached, read or decoded.
    public func decode(_ keyframe: IndexedSample, next: IndexedSample?) throws(MediaError) -> VideoFrame {
        // The index's timestamps are decoding times; a seek compares presentation times, which may lie a few frames
        // later (MP4's composition offsets): halfway to the next keyframe lands on this one whatever the offset.
        let target = next.map { keyframe.timestamp + max(($0.timestamp - keyframe.timestamp) / 2, 0) }
        try demuxer.seek(stream: track.index, toKeyframeAtOrBefore: target ?? Int64.max / 2)
        let packet = Packet()
        var position: Int64?
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == track.index else { continue }
            position = packet.position
            break
        }
        guard position == keyframe.offset, packet.isKeyframe else {
            throw MediaError(
                .seekFailed, url: demuxer.url, operation: .seek,
                reason: "the keyframe at byte \(keyframe.offset) (\(keyframe.seconds) s) was not reached (landed at "
                    + "byte \(position.map(String.init) ?? "none"))")
        }
        return try decodeAlone(packet)
    }

    /// Decodes `packet` alone: sent, then the decoder drained and made ready for the next.
    private func decodeAlone(_ packet: Packet) throws(MediaError) -> VideoFrame {
        defer { decoder.flush() }
        if case .rejected(let code) = decoder.send(packet) {
            throw MediaError(.decodeFailed, url: demuxer.url, operation: .decode, ffmpegCode: code)
        }
        _ = decoder.send(nil)
        while true {
            switch try decoder.receive() {
            case .frame(let raw):
                var ts = raw.pointee.best_effort_timestamp
                if ts == playctl_nopts_value() { ts = packet.pts ?? startTicks }
                let time = MediaTime(value: (ts - startTicks) * Int64(timeBase.num), timescale: timeBase.den)
                return VideoFrame(taking: raw, time: time, timestamp: ts, track: track)
            case .damaged:
                continue
            case .needsInput, .endOfStream:
                throw MediaError(
                    .decodeFailed, url: demuxer.url, operation: .decode,
                    reason: "the keyframe at \(packet.pts.map(String.init) ?? "?") gives no picture")
            }
        }
    }
}

import CFFmpeg

/// One sample of a stream as the container's index lists it: where its bytes lie and when it is decoded.
public struct IndexedSample: Sendable, Equatable {
    /// The sample's first byte in the file.
    public let offset: Int64
    /// Its length in bytes (0 when the index does not say: Matroska's cues).
    public let size: Int
    /// Its timestamp in the stream's time base, as the index gives it (the decoding time for MP4).
    public let timestamp: Int64
    /// Its timestamp in seconds from the media's start.
    public let seconds: Double
    /// Whether it is a keyframe (a picture that decodes alone).
    public let isKeyframe: Bool

    /// The byte after the sample's last.
    public var end: Int64 { offset + Int64(size) }
}

extension Demuxer {
    /// The samples of stream `index` listed in the container's index, in file order as the index holds them (every
    /// sample with its size for MP4; keyframes without sizes for Matroska's cues; none for MPEG-TS).
    public func indexedSamples(stream index: Int) -> [IndexedSample] {
        let stream = stream(index)
        let count = Int(avformat_index_get_entries_count(stream))
        let base = stream.pointee.time_base
        let start = startTicks(stream: index)
        var samples: [IndexedSample] = []
        samples.reserveCapacity(count)
        for entry in 0..<count {
            guard let item = avformat_index_get_entry(stream, Int32(entry)) else { continue }
            let ticks = item.pointee.timestamp - start
            samples.append(
                IndexedSample(
                    offset: item.pointee.pos, size: Int(item.pointee.size), timestamp: item.pointee.timestamp,
                    seconds: Double(ticks) * Double(base.num) / Double(base.den),
                    isKeyframe: item.pointee.flags & AVINDEX_KEYFRAME != 0))
        }
        return samples
    }

    /// The keyframes of the video track with their positions and sizes, from the container's index; empty when
    /// there is no video track or the index does not give every keyframe's position and size.
    public func indexedKeyframes() -> [IndexedSample] {
        guard let track = videoTrack else { return [] }
        let keys = indexedSamples(stream: track.index).filter(\.isKeyframe)
        guard keys.allSatisfy({ $0.offset >= 0 && $0.size > 0 }) else { return [] }
        return keys
    }
}

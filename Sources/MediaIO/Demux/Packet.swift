import CFFmpeg

/// One compressed packet read from a container. Owns its `AVPacket`, freed in `deinit`.
///
/// `@unchecked Sendable`: a packet is filled by one reader and then only read; it may be handed to another thread
/// (from a demux thread to a decode thread) but is never mutated by two at once.
public final class Packet: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVPacket>

    /// An empty packet, ready for `Demuxer.read(into:)`.
    public init() {
        guard let packet = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    /// The container stream this packet belongs to.
    public var streamIndex: Int { Int(pointer.pointee.stream_index) }
    /// Presentation timestamp in the stream's time base, or nil when the container gives none.
    public var pts: Int64? { pointer.pointee.pts == playctl_nopts_value() ? nil : pointer.pointee.pts }
    /// Decoding timestamp in the stream's time base, or nil when the container gives none.
    public var dts: Int64? { pointer.pointee.dts == playctl_nopts_value() ? nil : pointer.pointee.dts }
    /// Duration in the stream's time base, or 0 when the container gives none.
    public var duration: Int64 { max(pointer.pointee.duration, 0) }
    /// Whether the packet starts a sync (key) frame.
    public var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }
    /// Payload size in bytes.
    public var size: Int { Int(pointer.pointee.size) }
    /// Byte position in the file, when known.
    public var position: Int64? { pointer.pointee.pos < 0 ? nil : pointer.pointee.pos }
    /// A copy of the payload.
    var bytes: [UInt8] {
        guard let data = pointer.pointee.data, pointer.pointee.size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(pointer.pointee.size)))
    }
}

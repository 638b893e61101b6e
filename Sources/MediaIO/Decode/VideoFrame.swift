import CFFmpeg

/// One decoded picture in its native pixel format. Owns its `AVFrame`, freed in `deinit`.
///
/// `@unchecked Sendable`: a frame is written once by its decoder and then only read, so it can be handed from a
/// decode thread to a presenter thread.
public final class VideoFrame: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFrame>
    /// Presentation time, measured from the start of the media.
    public let time: MediaTime
    /// Presentation timestamp in the stream's time base (as the container wrote it).
    public let timestamp: Int64
    /// Degrees the picture must be turned clockwise to be shown upright.
    public let rotation: Int

    init(taking frame: UnsafeMutablePointer<AVFrame>, time: MediaTime, timestamp: Int64, rotation: Int) {
        self.pointer = frame
        self.time = time
        self.timestamp = timestamp
        self.rotation = rotation
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    public var width: Int { Int(pointer.pointee.width) }
    public var height: Int { Int(pointer.pointee.height) }
    /// The native pixel format.
    public var pixelFormat: PixelFormat { PixelFormat(AVPixelFormat(rawValue: pointer.pointee.format)) }
    /// Whether this picture is a keyframe.
    public var isKeyframe: Bool { pointer.pointee.key_frame != 0 }
    /// Frame duration in the stream's time base, when known.
    public var durationTicks: Int64 { pointer.pointee.pkt_duration }

    /// The size of the picture's planes packed with alignment 1 (`av_image_get_buffer_size`).
    public var packedSize: Int {
        Int(av_image_get_buffer_size(AVPixelFormat(rawValue: pointer.pointee.format), pointer.pointee.width,
                                     pointer.pointee.height, 1))
    }

    /// The planes packed one after another with alignment 1 (`av_image_copy_to_buffer`), as FFmpeg's rawvideo does.
    public func packedBytes() -> [UInt8] {
        let size = packedSize
        guard size > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: size)
        copyPacked(into: &bytes)
        return bytes
    }

    func copyPacked(into bytes: inout [UInt8]) {
        let f = pointer
        bytes.withUnsafeMutableBufferPointer { out in
            withUnsafePointer(to: f.pointee.data) { dataTuple in
                withUnsafePointer(to: f.pointee.linesize) { linesTuple in
                    dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { data in
                        linesTuple.withMemoryRebound(to: Int32.self, capacity: 8) { lines in
                            _ = av_image_copy_to_buffer(out.baseAddress, Int32(out.count), data, lines,
                                                        AVPixelFormat(rawValue: f.pointee.format),
                                                        f.pointee.width, f.pointee.height, 1)
                        }
                    }
                }
            }
        }
    }

    /// The MD5 of `packedBytes()` as 32 lowercase hex digits: the last column of `ffmpeg -f framemd5`.
    public func md5() -> String {
        MD5.hex(of: packedBytes())
    }
}

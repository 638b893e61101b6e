import CFFmpeg

/// A decoded picture: owns its `AVFrame`, freed in `deinit`.
///
/// `@unchecked Sendable`: a frame is written once by its decoder and then only read, so it can be handed from a
/// decode thread to a presenter thread.
final class DecodedPicture: PictureBuffer, @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFrame>

    init(taking frame: UnsafeMutablePointer<AVFrame>) {
        self.pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    var width: Int { Int(pointer.pointee.width) }
    var height: Int { Int(pointer.pointee.height) }
    var avFormat: AVPixelFormat { AVPixelFormat(rawValue: pointer.pointee.format) }
    var pixelFormat: PixelFormat { PixelFormat(avFormat) }
    var isKeyframe: Bool { pointer.pointee.key_frame != 0 }
    var durationTicks: Int64 { pointer.pointee.pkt_duration }

    /// `av_image_get_buffer_size` with alignment 1.
    var packedSize: Int {
        Int(av_image_get_buffer_size(avFormat, pointer.pointee.width, pointer.pointee.height, 1))
    }

    /// `av_image_copy_to_buffer` with alignment 1.
    func copyPacked(into buffer: UnsafeMutableRawBufferPointer) {
        let f = pointer
        withPlanes { data, lines in
            _ = av_image_copy_to_buffer(
                buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(buffer.count),
                data, lines, avFormat, f.pointee.width, f.pointee.height, 1)
        }
    }

    /// Calls `body` with the frame's plane pointers and line sizes, as libswscale and libavutil take them.
    func withPlanes<T>(_ body: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int32>) -> T) -> T {
        withUnsafePointer(to: pointer.pointee.data) { dataTuple in
            withUnsafePointer(to: pointer.pointee.linesize) { linesTuple in
                dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { data in
                    linesTuple.withMemoryRebound(to: Int32.self, capacity: 8) { lines in body(data, lines) }
                }
            }
        }
    }
}

extension VideoFrame {
    /// A frame of a decoded `AVFrame` (taken: freed with the frame) of `track`, turned as its display matrix says.
    convenience init(taking frame: UnsafeMutablePointer<AVFrame>, time: MediaTime, timestamp: Int64, track: TrackInfo) {
        self.init(
            picture: DecodedPicture(taking: frame), time: time, timestamp: timestamp, rotation: track.rotation,
            mirrored: track.mirrored)
    }

    /// The MD5 of `packedBytes()` as 32 lowercase hex digits: the last column of `ffmpeg -f framemd5`.
    public func md5() -> String {
        MD5.hex(of: packedBytes())
    }
}

extension VideoImage {
    /// The MD5 of `bytes`, comparable with `ffmpeg -pix_fmt <format> -f framemd5`.
    public func md5() -> String { MD5.hex(of: bytes) }
}

extension PixelFormat {
    /// The format of FFmpeg's `raw` value.
    init(_ raw: AVPixelFormat) {
        self.init(name: av_get_pix_fmt_name(raw).map { String(cString: $0) } ?? "none")
    }

    /// FFmpeg's value for this format (`AV_PIX_FMT_NONE` when FFmpeg has no format of that name).
    var avFormat: AVPixelFormat { av_get_pix_fmt(name) }

    /// Whether FFmpeg knows a format of this name.
    public var isKnownToFFmpeg: Bool { avFormat != AV_PIX_FMT_NONE }
}

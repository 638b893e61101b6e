import CFFmpeg

/// Encodes pictures as JPEG with FFmpeg's own encoder (`mjpeg`), as `ffmpeg -c:v mjpeg -q:v N` does.
public enum JPEGEncoder {
    /// JPEG bytes of a packed RGBA image at `quality` (FFmpeg's `-q:v`: 2 best to 31 worst).
    /// - Throws: `MediaError` (`.invalidArgument`) for an image that is not RGBA; FFmpeg's error otherwise.
    public static func encode(_ image: VideoImage, quality: Int = 3, url: String = "") throws(MediaError) -> [UInt8] {
        guard image.pixelFormat == .rgba else {
            throw MediaError(.invalidArgument, url: url, operation: .encode, reason: "JPEG needs an RGBA image")
        }
        let q = Int32(min(max(quality, 2), 31))
        return try StillEncoder.encode(
            codec: AV_CODEC_ID_MJPEG, format: AV_PIX_FMT_YUVJ420P, width: image.width, height: image.height, url: url,
            configure: { ctx in
                ctx.pointee.color_range = AVCOL_RANGE_JPEG
                ctx.pointee.flags |= AV_CODEC_FLAG_QSCALE
                ctx.pointee.global_quality = FF_QP2LAMBDA * q
            },
            fill: { frame throws(MediaError) in try convert(image, into: frame, url: url) })
    }

    /// RGBA to full-range YUV 4:2:0 in `frame`'s planes.
    private static func convert(
        _ image: VideoImage, into frame: UnsafeMutablePointer<AVFrame>, url: String
    ) throws(MediaError) {
        let w = Int32(image.width)
        let h = Int32(image.height)
        guard let context = sws_getContext(w, h, AV_PIX_FMT_RGBA, w, h, AV_PIX_FMT_YUVJ420P, SWS_BICUBIC, nil, nil, nil)
        else {
            throw MediaError(.invalidArgument, url: url, operation: .convert, reason: "libswscale cannot make YUV")
        }
        defer { sws_freeContext(context) }
        image.bytes.withUnsafeBufferPointer { source in
            var sourcePlanes: [UnsafePointer<UInt8>?] = [source.baseAddress, nil, nil, nil]
            var sourceStrides: [Int32] = [Int32(image.bytesPerRow[0]), 0, 0, 0]
            withUnsafeMutablePointer(to: &frame.pointee.data) { data in
                withUnsafeMutablePointer(to: &frame.pointee.linesize) { lines in
                    data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                        lines.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                            _ = sws_scale(context, &sourcePlanes, &sourceStrides, 0, h, planes, strides)
                        }
                    }
                }
            }
        }
    }
}

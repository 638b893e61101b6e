import CFFmpeg

/// Encodes pictures as PNG with FFmpeg's own PNG encoder.
public enum PNGEncoder {
    /// PNG bytes of `frame` as a viewer shows it: converted to RGBA and turned upright (and mirrored) as its display
    /// matrix says.
    public static func encode(_ frame: VideoFrame, url: String = "") throws(MediaError) -> [UInt8] {
        let image = try FrameConverter().convert(frame, to: .rgba).oriented(
            mirrored: frame.mirrored, clockwise: frame.rotation)
        return try encode(image, url: url)
    }

    /// PNG bytes of a packed RGBA image.
    public static func encode(_ image: VideoImage, url: String = "") throws(MediaError) -> [UInt8] {
        guard image.pixelFormat == .rgba else {
            throw MediaError(.invalidArgument, url: url, operation: .encode, reason: "PNG needs an RGBA image")
        }
        return try StillEncoder.encode(
            codec: AV_CODEC_ID_PNG, format: AV_PIX_FMT_RGBA, width: image.width, height: image.height, url: url
        ) { frame in
            let rowBytes = image.width * 4
            image.bytes.withUnsafeBufferPointer { src in
                let dst = frame.pointee.data.0!
                let stride = Int(frame.pointee.linesize.0)
                for y in 0..<image.height {
                    (dst + y * stride).update(from: src.baseAddress! + y * rowBytes, count: rowBytes)
                }
            }
        }
    }
}

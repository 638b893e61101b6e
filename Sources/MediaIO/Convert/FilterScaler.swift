import CFFmpeg

/// Scales decoded frames with libswscale set up the way FFmpeg's `scale` filter sets it up (`-vf
/// scale=W:H:flags=...`): the same algorithm flags, MPEG-2 chroma positions for 4:2:0 in and out, and the frame's
/// colour matrix and range given to the scaler, so a picture scaled here equals, byte for byte, the one `ffmpeg` gives. Keeps
/// one `SwsContext` for one input shape, freed in `deinit`. Used by one thread at a time.
public final class FilterScaler {
    /// libswscale's scaling algorithms, as the `flags` option of FFmpeg's `scale` filter names them.
    public enum Algorithm: String, Sendable, CaseIterable {
        case fastBilinear = "fast_bilinear"
        case bilinear, bicubic, neighbor, area, gauss, sinc, lanczos, spline

        var swsFlag: Int32 {
            switch self {
            case .fastBilinear: SWS_FAST_BILINEAR
            case .bilinear: SWS_BILINEAR
            case .bicubic: SWS_BICUBIC
            case .neighbor: SWS_POINT
            case .area: SWS_AREA
            case .gauss: SWS_GAUSS
            case .sinc: SWS_SINC
            case .lanczos: SWS_LANCZOS
            case .spline: SWS_SPLINE
            }
        }
    }

    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public let algorithm: Algorithm
    private var context: OpaquePointer?
    private var shape: (width: Int32, height: Int32, format: Int32, range: UInt32, space: UInt32)?

    /// A scaler to `width`x`height` in `format` with `algorithm` (FFmpeg's CLI scales with bicubic).
    public init(width: Int, height: Int, format: PixelFormat = .yuv420p, algorithm: Algorithm = .bicubic) {
        self.width = width
        self.height = height
        self.format = format
        self.algorithm = algorithm
    }

    deinit { sws_freeContext(context) }

    /// `frame` scaled, its planes packed with alignment 1 (as `ffmpeg -f rawvideo` writes them).
    /// - Throws: `MediaError` (`.invalidArgument`) when libswscale cannot convert between the formats.
    public func scale(_ frame: VideoFrame, url: String = "") throws(MediaError) -> VideoImage {
        let target = format.avFormat
        guard target != AV_PIX_FMT_NONE, let picture = frame.picture as? DecodedPicture else {
            throw MediaError(
                .invalidArgument, url: url, operation: .convert,
                reason: "cannot scale \(frame.pixelFormat) to \(format)")
        }
        let context = try self.context(for: picture, target: target, url: url)
        // libswscale writes past a row's end for some widths: into a padded scratch, packed after (PaddedImage).
        guard var scratch = PaddedImage(format: target, width: Int32(width), height: Int32(height)) else {
            throw MediaError(
                .invalidArgument, url: url, operation: .convert, reason: "no \(format) at \(width)x\(height)")
        }
        let result = picture.withPlanes { data, lines in
            scratch.withPlanes { planes, strides in
                sws_scale(context, data, lines, 0, Int32(picture.height), planes, strides)
            }
        }
        guard result > 0 else { throw MediaError(.invalidArgument, url: url, operation: .convert, ffmpegCode: result) }
        return FrameConverter.layout(
            bytes: scratch.packed(), format: format, width: Int32(width), height: Int32(height), time: frame.time)
    }

    /// The scaler for `picture`'s shape, made as the `scale` filter makes it (vf_scale.c, FFmpeg 5.1).
    private func context(
        for picture: DecodedPicture, target: AVPixelFormat, url: String
    ) throws(MediaError) -> OpaquePointer {
        let colours = (picture.pointer.pointee.color_range.rawValue, picture.pointer.pointee.colorspace.rawValue)
        let now = (Int32(picture.width), Int32(picture.height), picture.avFormat.rawValue, colours.0, colours.1)
        if let context, let shape, shape == now { return context }
        sws_freeContext(context)
        context = nil
        guard let made = sws_alloc_context() else { fatalError("sws_alloc_context: out of memory") }
        let raw = UnsafeMutableRawPointer(made)
        av_opt_set_int(raw, "srcw", Int64(picture.width), 0)
        av_opt_set_int(raw, "srch", Int64(picture.height), 0)
        av_opt_set_int(raw, "src_format", Int64(picture.avFormat.rawValue), 0)
        av_opt_set_int(raw, "dstw", Int64(width), 0)
        av_opt_set_int(raw, "dsth", Int64(height), 0)
        av_opt_set_int(raw, "dst_format", Int64(target.rawValue), 0)
        av_opt_set_int(raw, "sws_flags", Int64(algorithm.swsFlag), 0)
        // The filter gives 4:2:0 YUV the MPEG-2 chroma siting (vertically centred: 128/256).
        if picture.avFormat == AV_PIX_FMT_YUV420P { av_opt_set_int(raw, "src_v_chr_pos", 128, 0) }
        if target == AV_PIX_FMT_YUV420P { av_opt_set_int(raw, "dst_v_chr_pos", 128, 0) }
        guard sws_init_context(made, nil, nil) >= 0 else {
            sws_freeContext(made)
            throw MediaError(
                .invalidArgument, url: url, operation: .convert,
                reason: "libswscale cannot scale \(picture.pixelFormat) \(picture.width)x\(picture.height) to \(format)"
            )
        }
        // As the filter does for each frame: its colour matrix, and its range when it states one.
        ScalerColours.apply(picture, to: made)
        context = made
        shape = now
        return made
    }
}

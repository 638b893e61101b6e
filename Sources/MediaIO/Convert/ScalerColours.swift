import CFFmpeg

/// The colour matrix and range a stream's pictures are tagged with (its codec parameters): to convert a picture made
/// from its frames elsewhere (a scaled tile, packed) as the frames themselves convert (`VideoImage.converted(to:
/// colours:)`).
public struct ColourTags: Sendable, Hashable {
    let space: UInt32
    let range: UInt32

    /// The same matrix with no range stated (the picture's format's own): the tags of a picture `FilterScaler`
    /// scaled to YUV, which it writes in limited range whatever the range it read, as the `scale` filter does.
    public var matrixOnly: ColourTags { ColourTags(space: space, range: AVCOL_RANGE_UNSPECIFIED.rawValue) }
}

extension Demuxer {
    /// The colour matrix and range the video track's codec parameters state; nil without a video track.
    public var videoColours: ColourTags? {
        guard let track = videoTrack else { return nil }
        let parameters = stream(track.index).pointee.codecpar.pointee
        return ColourTags(space: parameters.color_space.rawValue, range: parameters.color_range.rawValue)
    }
}

/// The colours libswscale is told a decoded picture has, as FFmpeg's `scale` filter tells it for each frame
/// (vf_scale.c, FFmpeg 5.1, whose `in_color_matrix` is `auto`): the YCbCr matrix the frame is tagged with (BT.601
/// when it is untagged or names one libswscale does not know), for the input and the output alike, and the frame's
/// range when it states one. Without it a stream tagged BT.709 (most HD video) or BT.2020 was converted to RGB with
/// BT.601's matrix: colours off, and not ffmpeg's pixels (`ConvertedPixelsTests`).
enum ScalerColours {
    /// Tells `context` (made for `picture`'s shape) the picture's matrix and range.
    static func apply(_ picture: DecodedPicture, to context: OpaquePointer) {
        let frame = picture.pointer.pointee
        apply(ColourTags(space: frame.colorspace.rawValue, range: frame.color_range.rawValue), to: context)
    }

    /// Tells `context` the matrix and range of `tags`.
    static func apply(_ tags: ColourTags, to context: OpaquePointer) {
        var inverse: UnsafeMutablePointer<Int32>? = nil
        var table: UnsafeMutablePointer<Int32>? = nil
        var (srcRange, dstRange, brightness, contrast, saturation): (Int32, Int32, Int32, Int32, Int32) = (
            0, 0, 0, 0, 0
        )
        guard
            sws_getColorspaceDetails(
                context, &inverse, &srcRange, &table, &dstRange, &brightness, &contrast, &saturation) >= 0
        else { return }
        // The filter's parse_yuv_type: a matrix from 1 to 10 but YCgCo (8), else BT.470BG (= BT.601).
        let known = (1...10).contains(tags.space) && tags.space != AVCOL_SPC_YCGCO.rawValue
        let coefficients = sws_getCoefficients(Int32(known ? tags.space : UInt32(SWS_CS_DEFAULT)))
        let range = AVColorRange(rawValue: tags.range)
        let full: Int32 = range == AVCOL_RANGE_UNSPECIFIED ? srcRange : (range == AVCOL_RANGE_JPEG ? 1 : 0)
        _ = sws_setColorspaceDetails(
            context, coefficients, full, coefficients, dstRange, brightness, contrast, saturation)
    }
}

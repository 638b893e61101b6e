import CFFmpeg

/// The colours libswscale is told a decoded picture has, as FFmpeg's `scale` filter tells it for each frame
/// (vf_scale.c, FFmpeg 5.1, whose `in_color_matrix` is `auto`): the YCbCr matrix the frame is tagged with (BT.601
/// when it is untagged or names one libswscale does not know), for the input and the output alike, and the frame's
/// range when it states one. Without it a stream tagged BT.709 (most HD video) or BT.2020 was converted to RGB with
/// BT.601's matrix: colours off, and not ffmpeg's pixels (`ConvertedPixelsTests`).
enum ScalerColours {
    /// Tells `context` (made for `picture`'s shape) the picture's matrix and range.
    static func apply(_ picture: DecodedPicture, to context: OpaquePointer) {
        var inverse: UnsafeMutablePointer<Int32>? = nil
        var table: UnsafeMutablePointer<Int32>? = nil
        var (srcRange, dstRange, brightness, contrast, saturation): (Int32, Int32, Int32, Int32, Int32) = (
            0, 0, 0, 0, 0
        )
        guard
            sws_getColorspaceDetails(
                context, &inverse, &srcRange, &table, &dstRange, &brightness, &contrast, &saturation) >= 0
        else { return }
        let space = picture.pointer.pointee.colorspace
        // The filter's parse_yuv_type: a matrix from 1 to 10 but YCgCo (8), else BT.470BG (= BT.601).
        let known = (1...10).contains(space.rawValue) && space != AVCOL_SPC_YCGCO
        let coefficients = sws_getCoefficients(Int32(known ? space.rawValue : UInt32(SWS_CS_DEFAULT)))
        let range = picture.pointer.pointee.color_range
        let full: Int32 =
            range == AVCOL_RANGE_UNSPECIFIED ? srcRange : (range == AVCOL_RANGE_JPEG ? 1 : 0)
        _ = sws_setColorspaceDetails(
            context, coefficients, full, coefficients, dstRange, brightness, contrast, saturation)
    }
}

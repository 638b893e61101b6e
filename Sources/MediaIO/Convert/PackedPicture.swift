/// A picture made elsewhere (a scaled image) as a decoded frame's pixels: its planes packed with alignment 1, so it
/// can go through `FrameConverter` like any frame.
final class PackedPicture: PictureBuffer, Sendable {
    let image: VideoImage

    init(_ image: VideoImage) { self.image = image }

    var width: Int { image.width }
    var height: Int { image.height }
    var pixelFormat: PixelFormat { image.pixelFormat }
    var isKeyframe: Bool { true }
    var durationTicks: Int64 { 0 }
    var packedSize: Int { image.bytes.count }

    func copyPacked(into buffer: UnsafeMutableRawBufferPointer) {
        image.bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress!, byteCount: min(source.count, buffer.count))
        }
    }
}

extension VideoImage {
    /// The image in `format` at its own size (a colour conversion, no scaling), planes packed with alignment 1,
    /// converted with the colour matrix and range `colours` says (a stream's `Demuxer.videoColours`; BT.601 and
    /// the format's range when nil).
    /// - Throws: `MediaError` when libswscale cannot convert between the formats.
    public func converted(to format: PixelFormat, colours: ColourTags? = nil) throws(MediaError) -> VideoImage {
        let frame = VideoFrame(picture: PackedPicture(self), time: time, timestamp: 0, rotation: 0)
        return try FrameConverter().convert(frame, to: format, width: nil, height: nil, colours: colours)
    }
}

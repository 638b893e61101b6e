/// The pixels of one decoded picture, held by the layer that decoded them (FFmpeg's `AVFrame` in `MediaIO`).
///
/// Written once by its decoder and then only read, so it may be handed from a decode thread to any other.
public protocol PictureBuffer: AnyObject, Sendable {
    var width: Int { get }
    var height: Int { get }
    /// The native pixel format.
    var pixelFormat: PixelFormat { get }
    /// Whether the picture is a keyframe.
    var isKeyframe: Bool { get }
    /// Duration in the stream's time base, when known (0 otherwise).
    var durationTicks: Int64 { get }
    /// The size of the planes packed one after another with alignment 1.
    var packedSize: Int { get }
    /// Copies the planes packed one after another with alignment 1 (as FFmpeg's rawvideo does) into `buffer`,
    /// which holds at least `packedSize` bytes.
    func copyPacked(into buffer: UnsafeMutableRawBufferPointer)
}

/// One decoded picture in its native pixel format, with its place in time.
public final class VideoFrame: Sendable {
    /// Presentation time, measured from the start of the media.
    public let time: MediaTime
    /// Presentation timestamp in the stream's time base (as the container wrote it).
    public let timestamp: Int64
    /// Degrees the picture must be turned clockwise to be shown upright.
    public let rotation: Int
    /// Whether the picture must be mirrored left to right before it is turned by ``rotation``.
    public let mirrored: Bool
    /// The pixels.
    public let picture: any PictureBuffer

    public init(picture: any PictureBuffer, time: MediaTime, timestamp: Int64, rotation: Int, mirrored: Bool = false) {
        self.picture = picture
        self.time = time
        self.timestamp = timestamp
        self.rotation = rotation
        self.mirrored = mirrored
    }

    public var width: Int { picture.width }
    public var height: Int { picture.height }
    /// The native pixel format.
    public var pixelFormat: PixelFormat { picture.pixelFormat }
    /// Whether this picture is a keyframe.
    public var isKeyframe: Bool { picture.isKeyframe }
    /// Frame duration in the stream's time base, when known.
    public var durationTicks: Int64 { picture.durationTicks }
    /// The size of the picture's planes packed with alignment 1.
    public var packedSize: Int { picture.packedSize }

    /// The planes packed one after another with alignment 1, as FFmpeg's rawvideo does.
    public func packedBytes() -> [UInt8] {
        let size = packedSize
        guard size > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            picture.copyPacked(into: UnsafeMutableRawBufferPointer(buffer))
            count = size
        }
    }
}

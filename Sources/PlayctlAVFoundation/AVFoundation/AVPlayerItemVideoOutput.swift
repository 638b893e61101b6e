import Locking
import Playback

/// The frames of an item as pixel buffers the app pulls, as AVFoundation's `AVPlayerItemVideoOutput`, over a
/// playctl `VideoOutput` added to the engine item: each frame the player shows of the item is kept (the two shown
/// last at most, whatever the app copies), and converted when copied by FFmpeg's libswscale (bicubic) into a
/// ``CVPixelBuffer`` of the video's coded size (not turned by its display matrix, as Apple's).
///
/// - Pixel formats: ``kCVPixelFormatType_32BGRA`` (the default) and ``kCVPixelFormatType_32ARGB``, asked for with
///   ``kCVPixelBufferPixelFormatTypeKey`` (one format, or a list: the first of these two in it). Any other format
///   (the 4:2:0 bi-planar ones, say) falls back to BGRA: read ``CVPixelBufferGetPixelFormatType(_:)``, or
///   ``pixelFormatType``. Other attributes (sizes, IOSurface, Metal) are ignored.
/// - Times: a frame is "at" an item time from its presentation time on; the output answers for the frames the
///   player has shown (not ones decoded ahead), so a time ahead of the playhead gets the frame on screen now.
///
/// Every member may be used from any thread.
open class AVPlayerItemVideoOutput: AVPlayerItemOutput, @unchecked Sendable {
    /// The attributes the output was made with.
    public let pixelBufferAttributes: [String: Any]?
    /// The pixel format of the buffers handed out (``kCVPixelFormatType_32BGRA`` or ``kCVPixelFormatType_32ARGB``).
    public let pixelFormatType: OSType
    private let enginePixelFormat: PixelFormat
    /// The engine output: replaced by a fresh one when the output is removed from its item (dropping its frames).
    private let engineOutput: Locked<VideoOutput>

    /// An output of `pixelBufferAttributes` (nil: BGRA).
    public init(pixelBufferAttributes: [String: Any]?) {
        self.pixelBufferAttributes = pixelBufferAttributes
        pixelFormatType = Self.chosenFormat(pixelBufferAttributes)
        enginePixelFormat = pixelFormatType == kCVPixelFormatType_32ARGB ? PixelFormat(name: "argb") : .bgra
        engineOutput = Locked(VideoOutput(pixelFormat: enginePixelFormat))
        super.init()
    }

    /// The engine's output now receiving the item's frames (for tests that want more than Apple's API says).
    public var playctlOutput: VideoOutput { engineOutput.withLock { $0 } }

    /// Whether a frame is on screen at `itemTime` that has not been copied yet (a frame copied is not new again
    /// until a later one is shown, or the item jumps back).
    public func hasNewPixelBuffer(forItemTime itemTime: CMTime) -> Bool {
        guard itemTime.isNumeric else { return false }
        return playctlOutput.hasNewFrame(forItemTime: itemTime.mediaTime)
    }

    /// The frame on screen at `itemTime` as a new pixel buffer when it is new (see
    /// ``hasNewPixelBuffer(forItemTime:)``), its presentation time in `outItemTimeForDisplay`; nil when there is
    /// none new (or it could not be converted), `outItemTimeForDisplay` then left as it was.
    public func copyPixelBuffer(
        forItemTime itemTime: CMTime, itemTimeForDisplay outItemTimeForDisplay: UnsafeMutablePointer<CMTime>?
    ) -> CVPixelBuffer? {
        guard itemTime.isNumeric,
            let image = try? playctlOutput.copyNewFrame(forItemTime: itemTime.mediaTime),
            let buffer = CVPixelBuffer(
                width: image.width, height: image.height, bytesPerRow: image.bytesPerRow.first ?? 0,
                pixelFormatType: pixelFormatType, pixels: image.bytes)
        else { return nil }
        outItemTimeForDisplay?.pointee = CMTime(image.time)
        return buffer
    }

    override func attach(to item: AVPlayerItem) {
        item.playctlItem.add(playctlOutput)
    }

    override func detach(from item: AVPlayerItem) {
        let fresh = VideoOutput(pixelFormat: enginePixelFormat)
        let old = engineOutput.withLock { output in
            defer { output = fresh }
            return output
        }
        item.playctlItem.remove(old)
    }

    /// BGRA unless the attributes ask for ARGB before it.
    static func chosenFormat(_ attributes: [String: Any]?) -> OSType {
        let value = attributes?[kCVPixelBufferPixelFormatTypeKey]
        let asked: [Any] = (value as? [Any]) ?? (value.map { [$0] } ?? [])
        for entry in asked {
            let format: OSType? =
                switch entry {
                case let format as OSType: format
                case let format as Int: OSType(exactly: format)
                case let number as NSNumber: number.uint32Value
                default: nil
                }
            if let format, format == kCVPixelFormatType_32BGRA || format == kCVPixelFormatType_32ARGB { return format }
        }
        return kCVPixelFormatType_32BGRA
    }
}

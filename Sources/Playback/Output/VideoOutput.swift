import Locking
import MediaIO

/// A pull output, like `AVPlayerItemVideoOutput`: ask whether a new frame is there, and copy it in the pixel format
/// you want.
public final class VideoOutput: VideoFrameReceiver, Sendable {
    private struct State {
        var latest: VideoFrame?
        var lastCopied: MediaTime?
        var converter = FrameConverter()
    }

    private let state: Locked<State>
    /// The pixel format `copyFrame` delivers.
    public let pixelFormat: PixelFormat

    public init(pixelFormat: PixelFormat = .bgra) {
        self.pixelFormat = pixelFormat
        self.state = Locked(State())
    }

    func receive(_ frame: VideoFrame, hostTime: Double) -> (@Sendable () -> Void)? {
        state.withLock { $0.latest = frame }
        return nil
    }

    var callbackLabel: String { "videoOutput" }

    /// Whether a frame is shown at `itemTime` that has not been copied yet.
    public func hasNewFrame(forItemTime itemTime: MediaTime) -> Bool {
        state.withLock { s in
            guard let frame = s.latest, frame.time <= itemTime else { return false }
            return s.lastCopied != frame.time
        }
    }

    /// The frame shown at `itemTime`, converted to `pixelFormat`; nil when none is shown yet.
    public func copyFrame(forItemTime itemTime: MediaTime) throws(MediaError) -> VideoImage? {
        let frame: VideoFrame? = state.withLock { s in
            guard let frame = s.latest, frame.time <= itemTime else { return nil }
            s.lastCopied = frame.time
            return frame
        }
        guard let frame else { return nil }
        return try state.withLock { s throws(MediaError) in try s.converter.convert(frame, to: pixelFormat) }
    }
}

/// A push output: the block gets every presented frame, in order, on the player's callback executor (never the
/// engine thread, never under a lock of the player: it may call the player).
///
/// Under the manual and untimed clocks it gets every frame, and the clock waits for it. Under the host clock a
/// block slower than the frame rate gets fewer frames: while a few deliveries still wait for it, newer frames
/// skip it (counted in `Player.statistics.frameCallbacksSkipped`), so a slow sink never holds more than a few
/// decoded pictures or delays presentation.
public final class VideoSink: VideoFrameReceiver, Sendable {
    private let block: @Sendable (VideoFrame) -> Void

    public init(_ block: @escaping @Sendable (VideoFrame) -> Void) {
        self.block = block
    }

    func receive(_ frame: VideoFrame, hostTime: Double) -> (@Sendable () -> Void)? {
        let block = self.block
        return { block(frame) }
    }

    var callbackLabel: String { "videoSink" }
}

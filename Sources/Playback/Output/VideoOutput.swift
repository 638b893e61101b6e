import Locking
import MediaIO

/// A pull output, like `AVPlayerItemVideoOutput`: ask whether a new frame is there, and copy it in the pixel format
/// you want. Added to a player it gets every frame the player shows; added to an item (`PlayerItem.add(_:)`), that
/// item's frames only.
///
/// It holds the two frames shown last (``heldFrameLimit``), so that an app asking for a time a frame behind the
/// playhead still gets the frame that was on screen then; older frames are released as newer ones come. A frame
/// earlier than the newest held (a seek back, the item played again) drops those held and what was copied.
public final class VideoOutput: VideoFrameReceiver, Sendable {
    /// How many shown frames an output holds at most.
    public static let heldFrameLimit = 2

    private struct State {
        /// The frames shown last, oldest first (at most ``heldFrameLimit``).
        var recent: [VideoFrame] = []
        var lastCopied: MediaTime?

        /// The newest held frame due at `itemTime`.
        func frame(at itemTime: MediaTime) -> VideoFrame? {
            recent.last { $0.time <= itemTime }
        }
    }

    private let state = Locked(State())
    private let converter = Locked(FrameConverter())
    /// The pixel format `copyFrame` delivers.
    public let pixelFormat: PixelFormat

    public init(pixelFormat: PixelFormat = .bgra) {
        self.pixelFormat = pixelFormat
    }

    func receive(_ frame: VideoFrame, hostTime: Double) -> (@Sendable () -> Void)? {
        keep(frame)
        return nil
    }

    /// Holds `frame` as the newest shown (called by the engine under its lock: quick, no app code).
    func keep(_ frame: VideoFrame) {
        state.withLock { s in
            if let newest = s.recent.last, frame.time < newest.time {
                s.recent.removeAll()
                s.lastCopied = nil
            }
            s.recent.append(frame)
            if s.recent.count > Self.heldFrameLimit { s.recent.removeFirst(s.recent.count - Self.heldFrameLimit) }
        }
    }

    var callbackLabel: String { "videoOutput" }

    /// The presentation time of the frame shown at `itemTime` (the newest held frame not after it), new or not.
    public func frameTime(forItemTime itemTime: MediaTime) -> MediaTime? {
        state.withLock { $0.frame(at: itemTime)?.time }
    }

    /// Whether a frame is shown at `itemTime` that is newer than the last one copied.
    public func hasNewFrame(forItemTime itemTime: MediaTime) -> Bool {
        state.withLock { s in
            guard let frame = s.frame(at: itemTime) else { return false }
            return s.lastCopied.map { frame.time > $0 } ?? true
        }
    }

    /// The frame shown at `itemTime`, converted to `pixelFormat` (with libswscale); nil when none is shown yet.
    public func copyFrame(forItemTime itemTime: MediaTime) throws(MediaError) -> VideoImage? {
        try copy(forItemTime: itemTime, onlyNew: false)
    }

    /// The frame shown at `itemTime` when it is new (see ``hasNewFrame(forItemTime:)``), converted to
    /// `pixelFormat`; nil otherwise. The check and the marking as copied are one step.
    public func copyNewFrame(forItemTime itemTime: MediaTime) throws(MediaError) -> VideoImage? {
        try copy(forItemTime: itemTime, onlyNew: true)
    }

    private func copy(forItemTime itemTime: MediaTime, onlyNew: Bool) throws(MediaError) -> VideoImage? {
        let frame: VideoFrame? = state.withLock { s in
            guard let frame = s.frame(at: itemTime) else { return nil }
            if onlyNew, let copied = s.lastCopied, frame.time <= copied { return nil }
            s.lastCopied = frame.time
            return frame
        }
        guard let frame else { return nil }
        return try converter.withLock { converter throws(MediaError) in try converter.convert(frame, to: pixelFormat) }
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

import Locking
import Playback

/// A layer the app feeds with decoded frames itself, like `AVSampleBufferDisplayLayer`: the content of a
/// sample-buffer ``ContentSource``.
///
/// A frame is on display from the moment it is enqueued until the next one is enqueued or the layer is flushed.
/// To show a player's frames, add ``makeVideoSink()`` to the player. All members may be used from any thread.
public final class SampleBufferDisplayLayer: Sendable {
    private struct State {
        var current: VideoFrame?
        var framesDisplayed = 0
        var observers: [@Sendable (VideoFrame) -> Void] = []
    }

    private let state = Locked(State())

    /// An empty layer (not ready for display).
    public init() {}

    /// Shows `frame` now, replacing the frame on display.
    public func enqueue(_ frame: VideoFrame) {
        let observers = state.withLock { s -> [@Sendable (VideoFrame) -> Void] in
            s.current = frame
            s.framesDisplayed += 1
            return s.observers
        }
        for observer in observers { observer(frame) }
    }

    /// Removes the frame on display; the layer is not ready for display until the next ``enqueue(_:)``.
    public func flush() {
        state.withLock { $0.current = nil }
    }

    /// `true` while a frame is on display.
    public var isReadyForDisplay: Bool { state.withLock { $0.current != nil } }
    /// The frame on display.
    public var currentFrame: VideoFrame? { state.withLock { $0.current } }
    /// Frames enqueued since the layer was made.
    public var framesDisplayed: Int { state.withLock { $0.framesDisplayed } }

    /// Calls `block` with every frame enqueued, on the enqueuing thread (keep it quick).
    public func onFrame(_ block: @escaping @Sendable (VideoFrame) -> Void) {
        state.withLock { $0.observers.append(block) }
    }

    /// A push output that enqueues every frame a player presents into this layer (held weakly).
    public func makeVideoSink() -> VideoSink {
        VideoSink { [weak self] frame in self?.enqueue(frame) }
    }
}

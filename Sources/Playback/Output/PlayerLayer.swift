import Locking

/// A render target for a player, like `AVPlayerLayer`: it shows the player's frames and says when it has shown one.
/// Picture in Picture takes its content from a layer.
public final class PlayerLayer: VideoFrameReceiver, Sendable {
    private struct State {
        var player: Player?
        var isReadyForDisplay = false
        var framesDisplayed = 0
        var lastFrame: VideoFrame?
        var observers: [@Sendable (VideoFrame) -> Void] = []
    }

    private let state = Locked(State())

    /// A layer showing `player`'s frames (or nothing).
    public init(player: Player?) {
        self.player = player
    }

    /// The player whose frames this layer shows. Changing it resets `isReadyForDisplay`.
    public var player: Player? {
        get { state.withLock { $0.player } }
        set {
            let old = state.withLock { s -> Player? in
                let old = s.player
                s.player = newValue
                s.isReadyForDisplay = false
                s.lastFrame = nil
                return old
            }
            old?.removeReceiver(self)
            newValue?.addReceiver(self)
        }
    }

    /// True once the layer has shown a frame of its current player.
    public var isReadyForDisplay: Bool { state.withLock { $0.isReadyForDisplay } }
    /// Frames shown since the layer was made.
    public var framesDisplayed: Int { state.withLock { $0.framesDisplayed } }
    /// The frame on display.
    public var currentFrame: VideoFrame? { state.withLock { $0.lastFrame } }

    /// Calls `block` with every frame the layer shows, on its player's callback executor (as ``VideoSink`` does:
    /// never under a lock of the player, so it may call the player). `isReadyForDisplay` and `currentFrame` are
    /// already up to date when it runs.
    public func onFrame(_ block: @escaping @Sendable (VideoFrame) -> Void) {
        state.withLock { $0.observers.append(block) }
    }

    func receive(_ frame: VideoFrame, hostTime: Double) -> (@Sendable () -> Void)? {
        let observers = state.withLock { s -> [@Sendable (VideoFrame) -> Void] in
            s.isReadyForDisplay = true
            s.framesDisplayed += 1
            s.lastFrame = frame
            return s.observers
        }
        guard !observers.isEmpty else { return nil }
        return { for observer in observers { observer(frame) } }
    }

    var callbackLabel: String { "playerLayer" }
}

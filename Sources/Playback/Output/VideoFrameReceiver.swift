import MediaIO

/// Something the engine hands each presented frame to (called on the engine thread, under its lock: must be quick
/// and must not call back into the player).
protocol VideoFrameReceiver: AnyObject, Sendable {
    func receive(_ frame: VideoFrame, hostTime: Double)
}

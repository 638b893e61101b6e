/// Something the engine hands each presented frame to: a library output (``VideoOutput``, ``VideoSink``,
/// ``PlayerLayer``).
protocol VideoFrameReceiver: AnyObject, Sendable {
    /// Called by the engine with each frame shown, under its lock: updates the receiver's own state (quick, no app
    /// code) and returns the app code to run for the frame, if any, which the engine hands to the player's
    /// callback executor.
    func receive(_ frame: VideoFrame, hostTime: Double) -> (@Sendable () -> Void)?
    /// The hang watchdog's name for the app code `receive` returns.
    var callbackLabel: String { get }
}

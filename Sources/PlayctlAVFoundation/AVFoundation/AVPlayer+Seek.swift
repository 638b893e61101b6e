import Playback

/// Seeking, in every form AVPlayer has. The engine lands exactly (the frame on screen at the time) unless
/// `toleranceBefore` is infinite, when it lands on the keyframe at or before the time: either way within the
/// tolerances asked for. A new seek completes the one in flight with `false` at once; every completion handler runs
/// exactly once, on the player's callback thread.
extension AVPlayer {
    /// Seeks to the keyframe at or before `time`.
    public func seek(to time: CMTime) {
        seek(to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity) { _ in }
    }

    /// Seeks to the keyframe at or before `time`; `completionHandler` gets false when superseded or cancelled.
    public func seek(to time: CMTime, completionHandler: @escaping @Sendable (Bool) -> Void) {
        seek(
            to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity,
            completionHandler: completionHandler)
    }

    /// Seeks within `[time - toleranceBefore, time + toleranceAfter]`.
    public func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime) {
        seek(to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter) { _ in }
    }

    /// Seeks within `[time - toleranceBefore, time + toleranceAfter]`; `completionHandler` gets false when
    /// superseded, cancelled, or when there is no item ready.
    public func seek(
        to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime,
        completionHandler: @escaping @Sendable (Bool) -> Void
    ) {
        let tolerance = Self.engineTolerance(toleranceBefore)
        playctlPlayer.seek(
            to: time.mediaTime, toleranceBefore: tolerance, toleranceAfter: tolerance,
            completionHandler: completionHandler)
    }

    /// Seeks to the keyframe at or before `time`; returns false when superseded or cancelled.
    @discardableResult
    public func seek(to time: CMTime) async -> Bool {
        await seek(to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity)
    }

    /// Seeks within `[time - toleranceBefore, time + toleranceAfter]`; returns false when superseded or cancelled.
    @discardableResult
    public func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime) async -> Bool {
        let tolerance = Self.engineTolerance(toleranceBefore)
        return await playctlPlayer.seek(to: time.mediaTime, toleranceBefore: tolerance, toleranceAfter: tolerance)
    }

    /// Completes every seek in flight with false (as `AVPlayerItem.cancelPendingSeeks()` on the current item).
    func cancelPendingSeeks() { playctlPlayer.cancelPendingSeeks() }

    /// Zero (exact) unless `toleranceBefore` is infinite (keyframe at or before: the default seek).
    static func engineTolerance(_ toleranceBefore: CMTime) -> MediaTime {
        toleranceBefore.isPositiveInfinity ? .positiveInfinity : .zero
    }
}

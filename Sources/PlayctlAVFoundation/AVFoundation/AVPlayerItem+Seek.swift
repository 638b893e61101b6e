import Playback

extension AVPlayerItem {
    /// Seeks the item in its player to the keyframe at or before `time`; `completionHandler` gets false when
    /// superseded, cancelled, or when the item is in no player.
    public func seek(to time: CMTime, completionHandler: (@Sendable (Bool) -> Void)?) {
        seek(
            to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity,
            completionHandler: completionHandler)
    }

    /// Seeks the item in its player within `[time - toleranceBefore, time + toleranceAfter]` (see
    /// `AVPlayer.seek(to:toleranceBefore:toleranceAfter:completionHandler:)`).
    public func seek(
        to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime,
        completionHandler: (@Sendable (Bool) -> Void)?
    ) {
        let handler = completionHandler ?? { _ in }
        guard let player = owner.withLock({ $0.value }) else {
            handler(false)
            return
        }
        if player.playctlPlayer.currentItem === playctlItem {
            player.seek(
                to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter, completionHandler: handler)
        } else {
            let item = playctlItem
            let tolerance = AVPlayer.engineTolerance(toleranceBefore)
            Task {
                handler(await item.seek(to: time.mediaTime, toleranceBefore: tolerance, toleranceAfter: tolerance))
            }
        }
    }

    /// Seeks the item in its player to the keyframe at or before `time`; false when superseded, cancelled, or in
    /// no player.
    @discardableResult
    public func seek(to time: CMTime) async -> Bool {
        await seek(to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity)
    }

    /// Seeks the item in its player within the tolerances; false when superseded, cancelled, or in no player.
    @discardableResult
    public func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime) async -> Bool {
        let tolerance = AVPlayer.engineTolerance(toleranceBefore)
        return await playctlItem.seek(to: time.mediaTime, toleranceBefore: tolerance, toleranceAfter: tolerance)
    }

    /// Completes every seek in flight on this item with false.
    public func cancelPendingSeeks() { playctlItem.cancelPendingSeeks() }
}

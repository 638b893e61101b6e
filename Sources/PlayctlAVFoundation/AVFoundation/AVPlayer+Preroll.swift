import Playback

extension AVPlayer {
    /// Primes the current item for playback at `rate`, as AVFoundation's `preroll(atRate:completionHandler:)`: the
    /// engine loads and decodes ahead of the playhead by itself, so this only reports when it is ready: the handler
    /// gets true once the current item is likely to keep up (at once when it already is), false when the rate or
    /// the current item changes first, `cancelPendingPrerolls()` is called, or there is no current item. It is
    /// called on the player's callback thread (or a global queue when the answer is known at once).
    public func preroll(atRate rate: Float, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        let handler = completionHandler ?? { _ in }
        guard let item = currentItem else {
            DispatchQueue.global().async { handler(false) }
            return
        }
        if item.status == .readyToPlay, item.isPlaybackLikelyToKeepUp {
            DispatchQueue.global().async { handler(true) }
            return
        }
        prerolls.withLock { $0.append((PlayerEvent.makeSequenceNumber(), handler)) }
    }

    /// Calls the pending prerolls' handlers with false.
    public func cancelPendingPrerolls() {
        let pending = prerolls.withLock { list in
            defer { list = [] }
            return list
        }
        for entry in pending { entry.handler(false) }
    }

    /// On the callback thread, after `event` was applied: the prerolls asked for before it happened that it answers.
    func finishPrerolls(after event: PlayerEvent) {
        let finished: Bool
        switch event.kind {
        case .likelyToKeepUp(true): finished = true
        case .rate, .currentItem, .itemStatus(.failed, _, _): finished = false
        default: return
        }
        let answered = prerolls.withLock { list in
            defer { list.removeAll { $0.since < event.sequenceNumber } }
            return list.filter { $0.since < event.sequenceNumber }
        }
        for entry in answered { entry.handler(finished) }
    }
}

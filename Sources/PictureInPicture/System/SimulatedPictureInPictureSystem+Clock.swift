import Playback

/// Following the clock: timers, playback-state refreshes, and settling after each manual-clock advance.
extension SimulatedPictureInPictureSystem {
    // MARK: Keeping up

    /// Reports the window's playback state if it changed (or always, with `force`).
    func refresh(_ window: PictureInPictureWindow, force: Bool) {
        for event in window.playbackState.changes(at: now, force: force) {
            window.connection.publish(event)
        }
    }

    /// Host clocks: the window refreshes its playback state on its player's events, and the system watches its
    /// content (``watch(_:)``) on them and four times a second.
    func observePlayer(of window: PictureInPictureWindow) {
        guard clock.isManualClock == false else {
            window.setObserver(nil)
            return
        }
        let events = window.contentSource.player?.events()
        window.setObserver(
            Task { [weak self, weak window] in
                await withTaskGroup(of: Void.self) { group in
                    if let events {
                        group.addTask { [weak self, weak window] in
                            for await event in events {
                                switch event.kind {
                                case .currentItem, .itemStatus, .timeControlStatus, .timeJumped, .didPlayToEnd,
                                    .failedToPlayToEnd:
                                    guard let self, let window else { return }
                                    self.refresh(window, force: false)
                                    self.watch(window)
                                default:
                                    continue
                                }
                            }
                        }
                    }
                    group.addTask { [weak self, weak window] in
                        while !Task.isCancelled {
                            try? await Task.sleep(for: .milliseconds(250))
                            guard let self, let window, window.isOpen else { return }
                            self.watch(window)
                        }
                    }
                }
                _ = (self, window)
            })
    }

    /// Every controller samples its preconditions again.
    func preconditionsChanged() {
        for connection in connections { connection.preconditionsMayHaveChanged() }
    }

    /// Under a manual clock, at the end of every advance (after every player): delivers pending callbacks, fires
    /// the timers the advance reached (in deadline order), samples every controller's preconditions, reports
    /// changed playback states, and delivers the callbacks all of this produced.
    public func clockDidAdvance(to time: MediaTime) async {
        await callbacksDelivered()
        while let timer = state.withLock({ s -> Timer? in
            let due = s.timers.filter { time - $0.start >= $0.delay }
            guard let first = due.min(by: { ($0.start + $0.delay, $0.serial) < ($1.start + $1.delay, $1.serial) })
            else { return nil }
            s.timers.removeAll { $0.serial == first.serial }
            return first
        }) {
            timer.work()
        }
        preconditionsChanged()
        for window in windows {
            refresh(window, force: false)
            watch(window)
        }
        await callbacksDelivered()
    }

    /// Returns once every registered controller's callbacks produced so far have been delivered.
    public func callbacksDelivered() async {
        for _ in 0..<8 {
            let all = connections
            for connection in all { await connection.callbacksDelivered() }
            if all.allSatisfy({ $0.core.executor.isIdle }) { return }
        }
    }
}

extension ClockMode {
    var isManualClock: Bool {
        if case .manual = self { return true }
        return false
    }
}

import Playback

/// The engine's events, on the player's callback thread, in order: the observed state follows them, key-value
/// observers and notifications report them.
extension AVPlayer {
    func handle(_ event: PlayerEvent) {
        let item = event.itemSerialNumber.flatMap { wrapper(for: $0) }
        var posted: (Notification.Name, [AnyHashable: Any]?)?
        switch event.kind {
        case .rate(let rate, _):
            observed.withLock { $0.rate = rate }
        case .timeControlStatus(let status, let reason):
            observed.withLock { observed in
                observed.timeControlStatus = TimeControlStatus(status)
                observed.reasonForWaitingToPlay = reason.map(WaitingReason.init)
            }
        case .currentItem:
            observed.withLock { $0.currentItem = item }
            forgetItemsNotHeld()
        case .itemStatus(let status, let duration, let error):
            item?.observedStatusChanged(status, duration: duration, error: error)
            if status == .failed { item?.recordFailure(error ?? "the item failed") }
        case .likelyToKeepUp(let value):
            item?.observed.withLock { $0.isPlaybackLikelyToKeepUp = value }
        case .bufferEmpty(let value):
            item?.observed.withLock { $0.isPlaybackBufferEmpty = value }
        case .bufferFull(let value):
            item?.observed.withLock { $0.isPlaybackBufferFull = value }
        case .loadedTimeRanges(let ranges):
            item?.observed.withLock { $0.loadedTimeRanges = ranges.map(CMTimeRange.init) }
        case .didPlayToEnd:
            posted = (.AVPlayerItemDidPlayToEndTime, nil)
        case .failedToPlayToEnd(let message):
            let error = NSError(
                domain: AVFoundationErrorDomain, code: AVError.Code.unknown.rawValue,
                userInfo: [NSLocalizedDescriptionKey: message])
            posted = (.AVPlayerItemFailedToPlayToEndTime, [AVPlayerItemFailedToPlayToEndTimeErrorKey: error])
            item?.recordFailure(message)
        case .stalled:
            posted = (.AVPlayerItemPlaybackStalled, nil)
        case .timeJumped:
            posted = (.AVPlayerItemTimeJumped, nil)
        case .seekRequested, .seekCompleted, .firstFrame, .periodicTime, .boundaryTime, .decodeError, .audioOutput,
            .framesDropped:
            break
        case .presentationSize, .cue, .timedMetadata, .mediaSelection, .mediaOptionFailed, .variantSwitch:
            // presentationSize is read from the item; key-value observers hear of it below.
            break
        }
        keyValueObservers.changed(sequence: event.sequenceNumber)
        item?.keyValueObservers.changed(sequence: event.sequenceNumber)
        finishPrerolls(after: event)
        switch event.kind {
        case .rate, .timeControlStatus, .currentItem: announceTimebaseRates()
        default: break
        }
        if let (name, userInfo) = posted, let item {
            var info = userInfo ?? [:]
            info[PlayctlNotificationKeys.player] = self
            info[PlayctlNotificationKeys.hostTime] = event.hostTime
            info[PlayctlNotificationKeys.itemTime] = CMTime(event.itemTime)
            NotificationCenter.default.post(name: name, object: item, userInfo: info)
        }
    }

    /// Keeps `item`'s wrapper while this player holds it.
    func adopt(_ item: AVPlayerItem) {
        item.owner.withLock { $0.value = self }
        wrappers.withLock { $0[item.playctlItem.serialNumber] = item }
    }

    /// The wrapper of the engine item numbered `serial`: the app's own, or one made for an item the engine made (the
    /// copies an ``AVPlayerLooper`` queues).
    func wrapper(for serial: UInt64) -> AVPlayerItem? {
        if let known = wrappers.withLock({ $0[serial] }) { return known }
        let item =
            AVPlayerItem.registered(serial)
            ?? heldEngineItems().first { $0.serialNumber == serial }.map { AVPlayerItem(engineItem: $0) }
        guard let item else { return nil }
        adopt(item)
        return item
    }

    private func forgetItemsNotHeld() {
        let held = Set(heldEngineItems().map(\.serialNumber))
        let current = observed.withLock { $0.currentItem?.playctlItem.serialNumber }
        wrappers.withLock { wrappers in
            wrappers = wrappers.filter { held.contains($0.key) || $0.key == current }
        }
    }
}

extension AVPlayer {
    /// Posts `.TimebaseEffectiveRateChangedNotification` for each held item's timebase whose rate changed.
    func announceTimebaseRates() {
        for item in wrappers.withLock({ Array($0.values) }) {
            guard let timebase = item.existingTimebase else { continue }
            let rate = timebase.rate
            let changed = timebase.announcedRate.withLock { announced in
                defer { announced = rate }
                return announced != rate
            }
            if changed {
                NotificationCenter.default.post(name: .TimebaseEffectiveRateChangedNotification, object: timebase)
            }
        }
    }
}

import Locking
import Playback

extension AVPlayer {
    /// Calls `block` every `interval` of item time while playing, and when the time jumps and playback starts or
    /// stops, on `queue` (the main queue when nil). Keep the returned token and pass it to ``removeTimeObserver(_:)``.
    public func addPeriodicTimeObserver(
        forInterval interval: CMTime, queue: DispatchQueue?, using block: @escaping @Sendable (CMTime) -> Void
    ) -> Any {
        let delivery = QueueDelivery(queue, waits: waitsForCallbacks)
        let observer = TimeObserver(owner: self)
        observer.token = playctlPlayer.addPeriodicTimeObserver(forInterval: interval.mediaTime) { [observer] time in
            delivery.run { if observer.isActive { block(CMTime(time)) } }
        }
        return observer
    }

    /// Calls `block` when playback crosses one of `times` (`NSValue(time:)`), on `queue` (the main queue when nil).
    public func addBoundaryTimeObserver(
        forTimes times: [NSValue], queue: DispatchQueue?, using block: @escaping @Sendable () -> Void
    ) -> Any {
        let delivery = QueueDelivery(queue, waits: waitsForCallbacks)
        let observer = TimeObserver(owner: self)
        let mediaTimes = times.map(\.timeValue).filter(\.isNumeric).map(\.mediaTime)
        observer.token = playctlPlayer.addBoundaryTimeObserver(forTimes: mediaTimes) { [observer] _ in
            delivery.run { if observer.isActive { block() } }
        }
        return observer
    }

    /// As ``addBoundaryTimeObserver(forTimes:queue:using:)-(NSValue,_,_)`` with the times as `CMTime`s.
    public func addBoundaryTimeObserver(
        forTimes times: [CMTime], queue: DispatchQueue?, using block: @escaping @Sendable () -> Void
    ) -> Any {
        addBoundaryTimeObserver(forTimes: times.map { NSValue(time: $0) }, queue: queue, using: block)
    }

    /// Removes an observer this player returned: no call of its block starts after this returns. A token of
    /// another player, or anything else, traps (AVFoundation raises an exception).
    public func removeTimeObserver(_ observer: Any) {
        guard let observer = observer as? TimeObserver, observer.owner === self else {
            preconditionFailure("removeTimeObserver: not a time observer of this player")
        }
        observer.deactivate()
        if let token = observer.token { playctlPlayer.removeTimeObserver(token) }
    }
}

/// A time observer's token: `Any` to the app, as AVFoundation's.
final class TimeObserver: @unchecked Sendable {
    weak var owner: AVPlayer?
    private let state = Locked((active: true, token: TimeObserverToken?.none))

    init(owner: AVPlayer) { self.owner = owner }

    var token: TimeObserverToken? {
        get { state.withLock { $0.token } }
        set { state.withLock { $0.token = newValue } }
    }

    var isActive: Bool { state.withLock { $0.active } }

    func deactivate() { state.withLock { $0.active = false } }
}

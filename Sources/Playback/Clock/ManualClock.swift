import Foundation
import Locking

/// A virtual clock that moves only when told. Players created with `.manual(clock)` follow it.
///
/// `advance(by:)` returns once every player on the clock has applied all its pending background work and presented
/// everything due up to the new time, so a test sees a settled state after each step.
public final class ManualClock: Sendable {
    private struct State {
        var now: MediaTime = .zero
        var participants: [ObjectIdentifier: WeakParticipant] = [:]
    }

    private struct WeakParticipant {
        weak var value: (any ManualClockParticipant)?
    }

    private let state = Locked(State())

    public init() {}

    /// The clock's current time (starts at zero).
    public var now: MediaTime { state.withLock { $0.now } }

    /// Moves the clock forward by `interval` (zero is allowed: it just settles every player), then waits until
    /// every player on this clock has caught up.
    public func advance(by interval: MediaTime) async {
        let (target, participants) = state.withLock { state -> (MediaTime, [any ManualClockParticipant]) in
            if interval.isNumeric, interval > .zero { state.now = state.now + interval }
            state.participants = state.participants.filter { $0.value.value != nil }
            return (state.now, state.participants.values.compactMap(\.value))
        }
        for participant in participants.sorted(by: { $0.clockOrder < $1.clockOrder }) {
            await participant.clockDidAdvance(to: target)
        }
    }

    /// Moves the clock forward by `seconds`.
    public func advance(bySeconds seconds: Double) async {
        await advance(by: MediaTime(seconds: seconds))
    }

    /// Makes `participant` follow this clock: every `advance(by:)` awaits its
    /// ``ManualClockParticipant/clockDidAdvance(to:)``, in ``ManualClockParticipant/clockOrder``. Held weakly.
    /// Players register themselves; this is for other schedulers that must act in clock time (timers of a
    /// simulated system, for example).
    public func register(_ participant: any ManualClockParticipant) {
        state.withLock { $0.participants[ObjectIdentifier(participant)] = WeakParticipant(value: participant) }
    }

    /// Stops calling `participant`.
    public func unregister(_ participant: any ManualClockParticipant) {
        _ = state.withLock { $0.participants.removeValue(forKey: ObjectIdentifier(participant)) }
    }
}

/// Something that follows a manual clock (a player's engine, or another scheduler registered with
/// ``ManualClock/register(_:)``).
public protocol ManualClockParticipant: AnyObject, Sendable {
    /// Orders participants deterministically: players use their creation order (small numbers); a participant
    /// that must act after every player has caught up uses a large value.
    var clockOrder: UInt64 { get }
    /// Called at every advance with the clock's new time; the advance waits until it returns.
    func clockDidAdvance(to time: MediaTime) async
}

/// Identifies a time observer, to remove it with `Player.removeTimeObserver(_:)`.
public struct TimeObserverToken: Hashable, Sendable {
    let id: UInt64
}

/// The periodic and boundary time observers of one player, as a value: each input returns the observers to fire.
///
/// Periodic observers fire each time the item's time passes a multiple of their interval while playing, and also
/// when the time jumps (a seek lands) and when playback starts or stops, as AVPlayer's do. Boundary observers
/// fire when playback crosses one of their times.
struct TimeObserverSet: Sendable {
    /// One observer to call: its block, the time to call it with, and the event that reports it.
    struct Fire: Sendable {
        let block: @Sendable (MediaTime) -> Void
        let time: MediaTime
        let kind: PlayerEvent.Kind

        /// The hang watchdog's name for the callback.
        var label: String { kind == .periodicTime ? "periodicTimeObserver" : "boundaryTimeObserver" }
    }

    private struct Periodic: Sendable {
        let token: TimeObserverToken
        let interval: Double
        var lastFiredIndex: Int64?
        let block: @Sendable (MediaTime) -> Void
    }

    private struct Boundary: Sendable {
        let token: TimeObserverToken
        let times: [MediaTime]
        let block: @Sendable (MediaTime) -> Void
    }

    private var periodic: [Periodic] = []
    private var boundaries: [Boundary] = []
    private var nextID: UInt64 = 0
    private var lastTickTime: MediaTime?

    var isEmpty: Bool { periodic.isEmpty && boundaries.isEmpty }

    mutating func addPeriodic(interval: Double, block: @escaping @Sendable (MediaTime) -> Void) -> TimeObserverToken {
        nextID += 1
        let token = TimeObserverToken(id: nextID)
        periodic.append(Periodic(token: token, interval: max(interval, 0.001), lastFiredIndex: nil, block: block))
        return token
    }

    mutating func addBoundary(times: [MediaTime], block: @escaping @Sendable (MediaTime) -> Void) -> TimeObserverToken {
        nextID += 1
        let token = TimeObserverToken(id: nextID)
        boundaries.append(Boundary(token: token, times: times.sorted(), block: block))
        return token
    }

    mutating func remove(_ token: TimeObserverToken) {
        periodic.removeAll { $0.token == token }
        boundaries.removeAll { $0.token == token }
    }

    /// Every periodic observer, at `time` (a start, a stop, or a jump).
    mutating func fireAll(at time: MediaTime) -> [Fire] {
        periodic.indices.map { index in
            periodic[index].lastFiredIndex = Int64((time.seconds / periodic[index].interval).rounded(.down))
            return Fire(block: periodic[index].block, time: time, kind: .periodicTime)
        }
    }

    /// The playhead jumped to `playhead` (a seek landed; `reported` is what `currentTime()` says).
    mutating func jumped(to playhead: MediaTime, reported: MediaTime) -> [Fire] {
        lastTickTime = playhead
        return fireAll(at: reported)
    }

    /// The playhead is at `time`, moving (nil: not moving, or nothing to play). Returns the observers whose time
    /// has come since the last tick.
    mutating func tick(at time: MediaTime?) -> [Fire] {
        guard let time else {
            lastTickTime = nil
            return []
        }
        var fires: [Fire] = []
        for index in periodic.indices {
            let reached = Int64((time.seconds / periodic[index].interval + 1e-9).rounded(.down))
            if let last = periodic[index].lastFiredIndex, reached <= last { continue }
            periodic[index].lastFiredIndex = reached
            fires.append(Fire(block: periodic[index].block, time: time, kind: .periodicTime))
        }
        if let previous = lastTickTime {
            for boundary in boundaries {
                for mark in boundary.times where mark > previous && mark <= time {
                    fires.append(Fire(block: boundary.block, time: mark, kind: .boundaryTime(mark)))
                }
            }
        }
        lastTickTime = time
        return fires
    }

    /// The next item time at which an observer is due, after the playhead at `time`.
    func nextDue(after time: MediaTime) -> MediaTime? {
        var due: MediaTime?
        for observer in periodic {
            let next = MediaTime(seconds: Double((observer.lastFiredIndex ?? -1) + 1) * observer.interval)
            if next > time { due = min(due ?? next, next) }
        }
        for boundary in boundaries {
            if let next = boundary.times.first(where: { $0 > time }) { due = min(due ?? next, next) }
        }
        return due
    }
}

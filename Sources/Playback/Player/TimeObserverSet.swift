import MediaIO

/// Identifies a time observer, to remove it with `Player.removeTimeObserver(_:)`.
public struct TimeObserverToken: Hashable, Sendable {
    let id: UInt64
}

/// The periodic and boundary time observers of one player (guarded by the engine's lock).
///
/// Periodic observers fire each time the item's time passes a multiple of their interval while playing, and also
/// when the time jumps (a seek lands) and when playback starts or stops, as AVPlayer's do. Boundary observers
/// fire when playback crosses one of their times.
struct TimeObserverSet {
    struct Periodic {
        let token: TimeObserverToken
        let interval: Double
        var lastFiredIndex: Int64?
        let block: @Sendable (MediaTime) -> Void
    }

    struct Boundary {
        let token: TimeObserverToken
        let times: [MediaTime]
        let block: @Sendable (MediaTime) -> Void
    }

    private var periodic: [Periodic] = []
    private var boundaries: [Boundary] = []
    private var nextID: UInt64 = 0
    private var lastTickTime: MediaTime?

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

    /// Fires every periodic observer now (a jump, a start or a stop).
    mutating func fireAll(engine: PlayerEngine, at now: Double) {
        guard !periodic.isEmpty else { return }
        let time = engine.reportedTime(at: now)
        for index in periodic.indices {
            periodic[index].lastFiredIndex = Int64((time.seconds / periodic[index].interval).rounded(.down))
            fire(periodic[index].block, time: time, engine: engine, kind: .periodicTime, at: now)
        }
    }

    mutating func jumped(engine: PlayerEngine, at now: Double) {
        lastTickTime = engine.timelineTime(at: now)
        fireAll(engine: engine, at: now)
    }

    mutating func statusChanged(engine: PlayerEngine, at now: Double) {
        fireAll(engine: engine, at: now)
    }

    /// Fires the observers whose time has come.
    mutating func tick(engine: PlayerEngine, at now: Double) {
        guard engine.clockRunning, engine.currentSession != nil, engine.seeks.currentSeek == nil else {
            lastTickTime = nil
            return
        }
        let time = engine.timelineTime(at: now)
        for index in periodic.indices {
            let reached = Int64((time.seconds / periodic[index].interval + 1e-9).rounded(.down))
            if let last = periodic[index].lastFiredIndex, reached <= last { continue }
            periodic[index].lastFiredIndex = reached
            fire(periodic[index].block, time: time, engine: engine, kind: .periodicTime, at: now)
        }
        if let previous = lastTickTime {
            for boundary in boundaries {
                for mark in boundary.times where mark > previous && mark <= time {
                    fire(boundary.block, time: mark, engine: engine, kind: .boundaryTime(mark), at: now)
                }
            }
        }
        lastTickTime = time
    }

    /// Clock time at which the next periodic observer is due, while playing.
    func nextDue(engine: PlayerEngine) -> Double? {
        guard engine.clockRunning, !periodic.isEmpty || !boundaries.isEmpty else { return nil }
        let time = engine.timelineTime(at: engine.clockNow())
        var due: MediaTime?
        for observer in periodic {
            let next = MediaTime(seconds: Double((observer.lastFiredIndex ?? -1) + 1) * observer.interval)
            if next > time { due = min(due ?? next, next) }
        }
        for boundary in boundaries {
            if let next = boundary.times.first(where: { $0 > time }) { due = min(due ?? next, next) }
        }
        return due.map { engine.clockTime(ofItemTime: $0) }
    }

    private func fire(_ block: @escaping @Sendable (MediaTime) -> Void, time: MediaTime, engine: PlayerEngine,
                      kind: PlayerEvent.Kind, at now: Double) {
        engine.emit(kind, at: now)
        engine.deferCallback(kind == .periodicTime ? "periodicTimeObserver" : "boundaryTimeObserver") { block(time) }
    }
}

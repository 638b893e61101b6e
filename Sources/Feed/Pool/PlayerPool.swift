import Locking
import Playback

/// A pool of reusable players handed to the cells near the viewport (Media3's short-form demo uses 3, clamped
/// 1 to 5; the default here is 5).
///
/// The players are made when the pool is, so acquiring one never pays for a new engine. ``acquire()`` suspends while
/// every player is out and serves waiters in the order they came (a waiter that is cancelled leaves the line).
/// ``release(_:)`` pauses the player, takes its item away (its decoders stop, its sources close, its buffers go:
/// a released player holds nothing of the item) and hands it to the next waiter or back to the pool.
public final class PlayerPool: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Player, any Error>
    }

    private struct State {
        var free: [Player]
        var out: [ObjectIdentifier: Player] = [:]
        var waiters: [Waiter] = []
        var nextWaiter: UInt64 = 0
        var acquisitions = 0
        var waits = 0
    }

    /// The number of players.
    public let size: Int
    /// Every player of the pool, in the order they were made.
    public let players: [Player]
    private let state: Locked<State>
    private let observer: Locked<(@Sendable (PoolEvent) -> Void)?>

    /// What the pool did, for the feed's events.
    public enum PoolEvent: Sendable, Hashable {
        /// A player was handed out: `waited` when the caller had to wait for one.
        case acquire(player: Int, waited: Bool)
        case release(player: Int)
    }

    /// A pool of `size` players (at least 1) on `clock`, made now, playing their audio to `audioOutput`, each
    /// decoding video on `decoderThreads` threads into a queue of `decodedVideoBytes` (``Player``).
    public init(
        size: Int = 5, clock: ClockMode = .host, audio: Bool = true, audioOutput: AudioOutput = .null,
        decoderThreads: Int = 0, decodedVideoBytes: Int = Player.defaultDecodedVideoBytes
    ) {
        self.size = max(size, 1)
        players = (0..<max(size, 1)).map { _ in
            Player(
                clock: clock, audio: audio, audioOutput: audioOutput, decoderThreads: decoderThreads,
                decodedVideoBytes: decodedVideoBytes)
        }
        state = Locked(State(free: players))
        observer = Locked(nil)
    }

    deinit {
        for player in players { player.invalidate() }
    }

    /// Calls `observer` with each acquisition and release (on the caller's thread).
    public func observe(_ observer: @escaping @Sendable (PoolEvent) -> Void) {
        self.observer.withLock { $0 = observer }
    }

    /// Players free now.
    public var available: Int { state.withLock { $0.free.count } }
    /// Callers waiting for one.
    public var waiting: Int { state.withLock { $0.waiters.count } }
    /// Acquisitions so far, and how many of them had to wait.
    public var statistics: (acquisitions: Int, waits: Int) { state.withLock { ($0.acquisitions, $0.waits) } }

    /// A free player, or nil when every player is out.
    public func tryAcquire() -> Player? {
        let player = state.withLock { s -> Player? in
            guard !s.free.isEmpty else { return nil }
            let player = s.free.removeFirst()
            s.out[ObjectIdentifier(player)] = player
            s.acquisitions += 1
            return player
        }
        if let player { notify(.acquire(player: index(of: player), waited: false)) }
        return player
    }

    /// Takes `player` when it is free (an acquisition, as ``tryAcquire()``'s); false when it is out or not this
    /// pool's. For an owner that keeps its own account of which players are free: a ``FeedController`` decides
    /// which player an item gets under its lock and acquires it after releasing it.
    public func tryAcquire(_ player: Player) -> Bool {
        let taken = state.withLock { s -> Bool in
            guard let position = s.free.firstIndex(where: { $0 === player }) else { return false }
            s.free.remove(at: position)
            s.out[ObjectIdentifier(player)] = player
            s.acquisitions += 1
            return true
        }
        if taken { notify(.acquire(player: index(of: player), waited: false)) }
        return taken
    }

    /// A player: at once when one is free, else when one is released (waiters are served in order).
    /// - Throws: `CancellationError` when the calling task is cancelled while waiting.
    public func acquire() async throws -> Player {
        if let player = tryAcquire() { return player }
        let id = state.withLock { s -> UInt64 in
            s.nextWaiter += 1
            return s.nextWaiter
        }
        let player = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Player, any Error>) in
                let handed = state.withLock { s -> Player? in
                    // Freed while this waiter got ready: take it at once.
                    if !s.free.isEmpty {
                        let player = s.free.removeFirst()
                        s.out[ObjectIdentifier(player)] = player
                        s.acquisitions += 1
                        return player
                    }
                    s.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let handed {
                    continuation.resume(returning: handed)
                } else if Task.isCancelled {
                    cancelWaiter(id)
                }
            }
        } onCancel: {
            cancelWaiter(id)
        }
        notify(.acquire(player: index(of: player), waited: true))
        return player
    }

    /// Pauses `player`, takes its item away, and hands it to the next waiter or back to the pool. A player that is
    /// not out (released twice, or not this pool's) is ignored.
    public func release(_ player: Player) {
        guard state.withLock({ $0.out[ObjectIdentifier(player)] != nil }) else { return }
        player.pause()
        player.replaceCurrentItem(with: nil)
        player.defaultRate = 1
        let waiter = state.withLock { s -> Waiter? in
            guard s.out.removeValue(forKey: ObjectIdentifier(player)) != nil else { return nil }
            if s.waiters.isEmpty {
                s.free.append(player)
                return nil
            }
            let waiter = s.waiters.removeFirst()
            s.out[ObjectIdentifier(player)] = player
            s.acquisitions += 1
            s.waits += 1
            return waiter
        }
        notify(.release(player: index(of: player)))
        waiter?.continuation.resume(returning: player)
    }

    private func cancelWaiter(_ id: UInt64) {
        let waiter = state.withLock { s -> Waiter? in
            guard let index = s.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return s.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: CancellationError())
    }

    /// The player's place in ``players``.
    public func index(of player: Player) -> Int { players.firstIndex { $0 === player } ?? -1 }

    private func notify(_ event: PoolEvent) {
        observer.withLock { $0 }?(event)
    }
}

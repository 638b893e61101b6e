import Foundation
import Playback

/// The app's pool of players: a screen asks for a player for a URL and gives it back when it goes away. Players are
/// made on demand up to `capacity` and reused afterwards (making a player starts threads: reuse is cheaper); when
/// every player is taken, the one taken longest ago is paused and handed over.
public final class PlayerPool: @unchecked Sendable {
    private let lock = NSLock()
    private let capacity: Int
    private let clock: ClockMode
    private var idle: [Player] = []
    /// Players handed out, the oldest first, with the URL each plays.
    private var taken: [(player: Player, url: String)] = []
    public private(set) var playersMade = 0

    public init(capacity: Int, clock: ClockMode = .host) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.clock = clock
    }

    /// A player playing `url` from its start (paused: the caller decides when to play). The same URL taken twice
    /// gets the same player.
    public func acquire(_ url: String) -> Player {
        lock.lock()
        defer { lock.unlock() }
        if let index = taken.firstIndex(where: { $0.url == url }) { return taken[index].player }
        let player: Player
        if let reused = idle.popLast() {
            player = reused
        } else if playersMade < capacity {
            player = Player(clock: clock, audio: false)
            playersMade += 1
        } else {
            player = taken.removeFirst().player
            player.pause()
        }
        player.replaceCurrentItem(with: PlayerItem(url: url))
        taken.append((player, url))
        return player
    }

    /// Gives `player` back: it pauses, forgets its item, and waits to be reused.
    public func release(_ player: Player) {
        lock.lock()
        defer { lock.unlock() }
        guard let index = taken.firstIndex(where: { $0.player === player }) else { return }
        taken.remove(at: index)
        player.pause()
        player.replaceCurrentItem(with: nil)
        idle.append(player)
    }

    /// The URLs of the players handed out, the oldest first.
    public var urlsInUse: [String] {
        lock.lock()
        defer { lock.unlock() }
        return taken.map(\.url)
    }
}

import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// Plays one file under the untimed clock until the item fails or plays to its end, with a watchdog, and records
/// what the player reported on the way.
struct BrokenMediaPlayback {
    /// What happened.
    struct Outcome: CustomStringConvertible {
        var status: PlayerItemStatus = .unknown
        var error: MediaError?
        var playedToEnd = false
        var failedToPlayToEnd = false
        var decodeErrorEvents = 0
        var statusEvents: [PlayerItemStatus] = []
        var framesRendered = 0
        var timeControlStatus: TimeControlStatus = .paused
        /// Wall-clock seconds from taking the item to the player's emitting its final event (timed on the player's
        /// thread, so a busy test process does not count), or to the timeout.
        var seconds: Double = 0
        /// The watchdog stopped the player: neither end nor failure came in time.
        var timedOut = false

        var description: String {
            "status \(status), error \(error.map { "\($0.kind): \($0)" } ?? "none"), playedToEnd \(playedToEnd), "
                + "decodeErrors \(decodeErrorEvents), frames \(framesRendered), \(String(format: "%.2f", seconds)) s"
                + (timedOut ? ", TIMED OUT" : "")
        }
    }

    /// Plays `path` (audio decoded too), giving up after `timeout`. With `asUser`, the item is taken on a thread
    /// whose file-system identity is that user's (see `FileSystemIdentity`), so its loader opens the file as them.
    ///
    /// A player that hangs may hold its lock forever, so after a timeout nothing here touches the player again
    /// (it is invalidated on a thread of its own, which may never return): the test fails instead of hanging.
    static func play(_ path: String, timeout: Duration = .seconds(30), asUser user: UInt32? = nil) async -> Outcome {
        let player = Player(clock: .untimed, audio: true)
        let item = PlayerItem(url: path)
        let events = player.events()
        let started = ContinuousClock.now
        let ended = Locked<ContinuousClock.Instant?>(nil)
        player.observeEvents { event in
            switch event.kind {
            case .itemStatus(.failed, _, _), .didPlayToEnd: ended.withLock { $0 = $0 ?? ContinuousClock.now }
            default: break
            }
        }
        if let user {
            FileSystemIdentity.run(as: user) { player.replaceCurrentItem(with: item) }
        } else {
            player.replaceCurrentItem(with: item)
        }
        player.play()
        // On a timeout the reading task is left behind (see withDeadline): nothing here waits for the player.
        let watched = try? await withDeadline("\(path) to play to its end or fail", timeout: timeout) {
            await collect(events)
        }
        var outcome = watched ?? Outcome()
        outcome.seconds = ((ended.withLock { $0 } ?? ContinuousClock.now) - started) / .seconds(1)
        outcome.status = item.status
        outcome.error = item.error
        guard watched != nil else {
            outcome.timedOut = true
            Thread.detachNewThread { player.invalidate() }
            return outcome
        }
        outcome.framesRendered = player.statistics.framesRendered
        outcome.timeControlStatus = player.timeControlStatus
        player.invalidate()
        return outcome
    }

    /// Reads events until the item fails or plays to its end.
    private static func collect(_ events: AsyncStream<PlayerEvent>) async -> Outcome {
        var outcome = Outcome()
        loop: for await event in events {
            switch event.kind {
            case .itemStatus(let status, _, _):
                outcome.statusEvents.append(status)
                if status == .failed { break loop }
            case .didPlayToEnd:
                outcome.playedToEnd = true
                break loop
            case .failedToPlayToEnd:
                outcome.failedToPlayToEnd = true
            case .decodeError:
                outcome.decodeErrorEvents += 1
            default:
                break
            }
        }
        return outcome
    }
}

/// Root reads any file; to see "permission denied" the file must be opened with another file-system identity.
/// On Linux that identity is per thread (`setfsuid`/`setfsgid`) and inherited by the threads a thread starts.
enum FileSystemIdentity {
    /// The unprivileged `nobody` user.
    static let nobody: UInt32 = 65_534

    /// Whether the process runs as root (only then is a change of identity needed, and possible).
    static var isRoot: Bool { getuid() == 0 }

    /// Runs `body` on a new thread whose file-system identity is `user` (when running as root), and waits for it.
    static func run(as user: UInt32, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            if isRoot { set(user) }
            body()
            done.signal()
        }
        thread.start()
        done.wait()
    }

    /// glibc's setfsgid/setfsuid (not in Swift's Glibc module): changes the calling thread's file-system identity.
    private static func set(_ id: UInt32) {
        typealias SetID = @convention(c) (UInt32) -> Int32
        let handle = dlopen(nil, RTLD_NOW)
        for name in ["setfsgid", "setfsuid"] {
            guard let symbol = dlsym(handle, name) else { continue }
            _ = unsafeBitCast(symbol, to: SetID.self)(id)
        }
    }
}

import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// Random sequences of API calls from several tasks at once, on one player under a manual clock, with good and
/// broken items mixed: nothing crashes or hangs, every seek completes exactly once, and at each quiet point the
/// player's state is one it can be in. Seeded: a failure names its seed, and the same seed replays the same calls
/// (the interleaving of the tasks within a round may differ).
@Suite("Random API sequences from several tasks")
struct RandomAPISequenceTests {
    /// Media the sequences pick from: clips, broken files (made per test) and a missing path.
    static let clips = ["a.mp4", "b.mp4", "c.webm", "rotated.mp4", "offset.ts", "tone.m4a"].map {
        MediaFixtures.path($0)
    }
    static let broken = ["trunc-a-050.mp4", "flip-b-1000.mp4", "zeroed-a-middle.mp4", "noise.mp4", "empty.mp4"]

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func randomSequence(seed: UInt64) async throws {
        let dir = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(dir) }
        var paths = Self.clips + ["/nonexistent/missing.mp4"]
        for name in Self.broken { paths.append(try #require(BrokenMedia.named(name)).write(in: dir)) }
        let clock = ManualClock()
        let player = Player(clock: .manual(clock), audio: seed % 2 == 0)
        let log = SequenceLog()
        player.observeEvents { log.record($0) }
        var random = SplitMix64(seed: seed)
        for round in 0..<25 {
            // Three tasks call the player at once; each call is checked only for not trapping or hanging.
            let plans = (0..<3).map { _ in (0..<4).map { _ in Call.random(&random, paths: paths) } }
            let finished = try? await withDeadline("round \(round)'s calls", timeout: .seconds(30)) {
                await withTaskGroup(of: Void.self) { group in
                    for plan in plans {
                        group.addTask { for call in plan { await call.perform(on: player, log: log) } }
                    }
                }
                return true
            }
            guard finished != nil else {
                Issue.record("seed \(seed), round \(round): calls did not return in 30 s: \(plans)")
                Thread.detachNewThread { player.invalidate() }
                return
            }
            let step = MediaTime(value: Int64(random.next() % 400), timescale: 1000)
            let advanced = try? await withDeadline("round \(round)'s clock advance", timeout: .seconds(30)) {
                await clock.advance(by: step)
                return true
            }
            guard advanced != nil else {
                Issue.record("seed \(seed), round \(round): the clock advance did not return in 30 s")
                Thread.detachNewThread { player.invalidate() }
                return
            }
            Self.checkQuietState(player, seed: seed, round: round)
        }
        player.invalidate()
        for problem in log.problems() { Issue.record("seed \(seed): \(problem)") }
        for item in log.items() {
            switch item.status {
            case .failed: #expect(item.error != nil, "seed \(seed): \(item.name) failed without an error")
            case .readyToPlay: #expect(item.error == nil, "seed \(seed): \(item.name) is ready with an error")
            case .unknown: break  // replaced before it finished loading
            }
        }
    }

    /// What must hold whenever no call is in flight.
    static func checkQuietState(_ player: Player, seed: UInt64, round: Int) {
        let context = "seed \(seed), round \(round)"
        let rate = player.rate
        let status = player.timeControlStatus
        #expect((status == .paused) == (rate == 0), "\(context): \(status) at rate \(rate)")
        if status == .waitingToPlayAtSpecifiedRate {
            #expect(player.reasonForWaitingToPlay != nil, "\(context): waiting without a reason")
        }
        let time = player.currentTime()
        #expect(time.isNumeric && time >= .zero, "\(context): current time \(time)")
        if let item = player.currentItem, item.duration.isNumeric {
            #expect(time <= item.duration, "\(context): current time \(time) past the duration \(item.duration)")
        }
        if player.currentItem == nil && rate != 0 {
            #expect(player.reasonForWaitingToPlay == .noItemToPlay, "\(context): no item, rate \(rate)")
        }
    }
}

/// One API call of a random sequence.
enum Call: Sendable, CustomStringConvertible {
    case replace(String?)
    case play, pause
    case rate(Float)
    case seek(fraction: Double, exact: Bool)
    case cancelSeeks
    case waits(Bool)

    static func random(_ random: inout SplitMix64, paths: [String]) -> Call {
        switch random.next() % 10 {
        case 0, 1: return .replace(random.next() % 8 == 0 ? nil : random.pick(paths))
        case 2: return .play
        case 3: return .pause
        case 4: return .rate(random.pick([0, 0.5, 1, 2, -1, .nan]))
        case 5, 6, 7: return .seek(fraction: Double(random.next() % 1300) / 1000 - 0.15, exact: random.bool())
        case 8: return .cancelSeeks
        default: return .waits(random.bool())
        }
    }

    func perform(on player: Player, log: SequenceLog) async {
        switch self {
        case .replace(let path):
            let item = path.map { PlayerItem(url: $0) }
            if let item { log.add(item) }
            player.replaceCurrentItem(with: item)
        case .play: player.play()
        case .pause: player.pause()
        case .rate(let rate): player.rate = rate
        case .seek(let fraction, let exact):
            let duration = player.currentItem?.duration ?? .indefinite
            let span = duration.isNumeric ? duration.seconds : 1
            let tolerance: MediaTime = exact ? .zero : .positiveInfinity
            // Under the manual clock a seek lands once the decoders settle, without the clock moving.
            _ = await player.seek(
                to: MediaTime(seconds: span * fraction), toleranceBefore: tolerance,
                toleranceAfter: tolerance)
        case .cancelSeeks: player.cancelPendingSeeks()
        case .waits(let waits): player.automaticallyWaitsToMinimizeStalling = waits
        }
    }

    var description: String {
        switch self {
        case .replace(let path): return "replace(\(path.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "nil"))"
        case .play: return "play"
        case .pause: return "pause"
        case .rate(let rate): return "rate(\(rate))"
        case .seek(let fraction, let exact): return "seek(\(fraction)\(exact ? ", exact" : ""))"
        case .cancelSeeks: return "cancelSeeks"
        case .waits(let waits): return "waits(\(waits))"
        }
    }
}

/// The events of one sequence, recorded synchronously, and the items it made.
final class SequenceLog: Sendable {
    private struct State {
        var requested: [UInt64] = []
        var completed: [UInt64: Int] = [:]
        var items: [PlayerItem] = []
    }

    private let state = Locked(State())

    func record(_ event: PlayerEvent) {
        state.withLock { state in
            switch event.kind {
            case .seekRequested(let id, _, _, _, _): state.requested.append(id)
            case .seekCompleted(let id, _, _, _, _): state.completed[id, default: 0] += 1
            default: break
            }
        }
    }

    func add(_ item: PlayerItem) { state.withLock { $0.items.append(item) } }

    func items() -> [PlayerItem] { state.withLock { $0.items } }

    /// Seeks completed other than exactly once (after `invalidate`, every seek in flight has completed).
    func problems() -> [String] {
        state.withLock { state in
            var problems: [String] = []
            for id in state.requested where state.completed[id, default: 0] != 1 {
                problems.append("seek #\(id) completed \(state.completed[id, default: 0]) times")
            }
            for id in state.completed.keys where !state.requested.contains(id) {
                problems.append("seek #\(id) completed without being requested")
            }
            return problems
        }
    }
}

import Foundation
import Locking
import MediaIO
import PictureInPicture
import Playback
import PlaybackTesting

/// `playctl-bench run --playback`: the player's own figures, measured in one run.
///
/// - startup: `PlayerItem` + `Player` + `play()` until the first frame is presented, against a bare libav
///   open + probe + first-frame decode of the same file in the same process (median of runs);
/// - presentation error: real-time playback of a 10 s clip; each frame's presentation time against its ideal time
///   (p50, p99, max);
/// - 8 concurrent 360p players (with audio) on this machine: frames dropped;
/// - peak memory of `playctl play F --untimed` against `ffmpeg -i F -f null -` (separate processes, ru_maxrss);
/// - Picture in Picture swap: cold (`replaceCurrentItem`) and prepared (`swapContentSource`) time from the swap to
///   the first frame of B in the window, against B's startup alone and one frame interval.
public struct PlaybackBench: Sendable {
    /// The file startup, real-time presentation and peak memory are measured on.
    public let file: String
    /// A small clip (360p) for the concurrent players and the Picture in Picture source A.
    public let small: String
    /// The clip Picture in Picture swaps to (B): 480x270, so the window shows when it arrives.
    public let swapTarget: String
    /// Runs per median.
    public let runs: Int

    /// A bench of `file`, with `small` and `swapTarget` for the concurrent players and the swap.
    public init(file: String, small: String, swapTarget: String, runs: Int) {
        self.file = file
        self.small = small
        self.swapTarget = swapTarget
        self.runs = runs
    }

    /// Measures everything, saying each step on `progress`; returns the figures as (name, value) rows in order.
    public func run(progress: (String) -> Void) async -> [(String, String)] {
        var rows: [(String, String)] = []
        // First, while this process is small: a spawned child's ru_maxrss counts the parent's pages until it execs.
        progress("peak memory")
        rows.append(("peak memory, playing vs ffmpeg decoding", peakMemory(file)))
        progress("startup")
        let startup = await startupMedian(file)
        let bare = bareOpenMedian(file)
        rows.append(
            (
                "startup (item + play -> first frame)",
                String(
                    format: "%.1f ms; bare libav open+probe+decode %.1f ms; ratio %.2fx (target <= 1.2x)",
                    startup * 1000, bare * 1000, startup / bare)
            ))
        progress("presentation error over a 10 s clip")
        let errors = await presentationErrors(file)
        rows.append(
            (
                "presentation error, real time",
                String(
                    format: "p50 %.3f ms, p99 %.3f ms, max %.3f ms over %d frames (target p99 <= 2 ms)",
                    errors.p50 * 1000, errors.p99 * 1000, errors.max * 1000, errors.count)
            ))
        progress("8 concurrent players")
        let concurrent = await concurrentPlayers(small, count: 8)
        rows.append(
            (
                "8 concurrent 360p players",
                "\(concurrent.rendered) frames rendered, \(concurrent.dropped) dropped (target 0)"
            ))
        progress("PiP swap latency")
        rows.append(("PiP swap -> first frame of B in window", await swapLatency()))
        return rows
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }

    /// Seconds from creating the item to the first frame presented.
    func startupMedian(_ path: String) async -> Double {
        var times: [Double] = []
        for _ in 0..<runs { times.append(await startup(path, audio: false)) }
        return Self.median(times)
    }

    /// Seconds from creating the item to the first frame presented, once, after a quiet moment.
    private func startup(_ path: String, audio: Bool) async -> Double {
        await Self.startup(audio: audio) { PlayerItem(url: path) }
    }

    /// Seconds from making a player and the item `makeItem` returns to the first frame presented, once, after a quiet
    /// moment (the network bench times items read from a byte cache with it).
    static func startup(audio: Bool, _ makeItem: () -> PlayerItem) async -> Double {
        await quiet()
        let start = Date()
        let shown = FirstFrame()
        let player = Player(clock: .host, audio: audio)
        player.add(VideoSink { _ in shown.mark() })
        player.replaceCurrentItem(with: makeItem())
        player.play()
        let seconds = await shown.wait(since: start)
        player.invalidate()
        return seconds
    }

    /// Seconds for Demuxer + VideoFrameReader + the first frame, in this process.
    func bareOpenMedian(_ path: String) -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = Date()
            let reader = try? VideoFrameReader(url: path)
            _ = try? reader?.nextFrame()
            // Timed before the reader is released: closing the decoder (joining its threads) is not part of a start.
            times.append(Date().timeIntervalSince(start))
            withExtendedLifetime(reader) {}
        }
        return Self.median(times)
    }

    func presentationErrors(_ path: String) async -> (p50: Double, p99: Double, max: Double, count: Int) {
        let player = Player(clock: .host, audio: true)
        let item = PlayerItem(url: path)
        player.replaceCurrentItem(with: item)
        player.play()
        for await event in player.events() {
            if case .didPlayToEnd = event.kind { break }
            if case .itemStatus(.failed, _, _) = event.kind { break }
        }
        let errors = player.presentationError
        player.invalidate()
        return errors
    }

    func concurrentPlayers(_ path: String, count: Int) async -> (rendered: Int, dropped: Int) {
        let players = (0..<count).map { _ in Player(item: PlayerItem(url: path), clock: .host, audio: true) }
        for player in players { player.play() }
        await withTaskGroup(of: Void.self) { group in
            for player in players {
                let events = player.events()
                group.addTask {
                    for await event in events {
                        if case .didPlayToEnd = event.kind { return }
                        if case .itemStatus(.failed, _, _) = event.kind { return }
                    }
                }
            }
        }
        let totals = players.reduce((0, 0)) {
            ($0.0 + $1.statistics.framesRendered, $0.1 + $1.statistics.framesDropped)
        }
        for player in players { player.invalidate() }
        return totals
    }

    func peakMemory(_ path: String) -> String {
        let playctl = BenchTools.playctl()
        guard let ffmpeg = ProcessRunner.findExecutable("ffmpeg") else { return "ffmpeg not installed" }
        guard let ours = try? ProcessRunner.run(playctl, ["play", path, "--untimed"], standardOutput: .capture),
            let theirs = try? ProcessRunner.run(
                ffmpeg, ["-v", "error", "-i", path, "-f", "null", "-"], standardOutput: .capture)
        else { return "could not run the processes" }
        return String(
            format: "playctl %.1f MB, ffmpeg %.1f MB, ratio %.2fx (target <= 1.2x)",
            Double(ours.peakRSSKiB) / 1024, Double(theirs.peakRSSKiB) / 1024,
            Double(ours.peakRSSKiB) / Double(max(theirs.peakRSSKiB, 1)))
    }

    /// Real time: PiP active on A; swap to B by item (cold) and by a prepared source; time to B's first frame.
    func swapLatency() async -> String {
        var cold: [Double] = []
        var prepared: [Double] = []
        var alone: [Double] = []
        for _ in 0..<max(runs, 3) {
            alone.append(await startup(swapTarget, audio: true))
            cold.append(await swap(prepared: false))
            prepared.append(await swap(prepared: true))
        }
        let interval = 1.0 / 25
        return String(
            format: "cold %.1f ms (B alone %.1f ms, ratio %.2fx, target <= 1.2x); prepared %.2f ms (target <= %.0f ms)",
            Self.median(cold) * 1000, Self.median(alone) * 1000, Self.median(cold) / Self.median(alone),
            Self.median(prepared) * 1000, interval * 1000)
    }

    private func swap(prepared: Bool) async -> Double {
        let system = SimulatedPictureInPictureSystem(profile: .iOS, clock: .host)
        let player = Player(item: PlayerItem(url: small), clock: .host, audio: true)
        let layer = PlayerLayer(player: player)
        player.play()
        while !layer.isReadyForDisplay { try? await Task.sleep(for: .milliseconds(2)) }
        let controller = PictureInPictureController(playerLayer: layer, system: system)
        try? controller.startPictureInPicture()
        while !controller.isPictureInPictureActive { try? await Task.sleep(for: .milliseconds(2)) }
        try? await Task.sleep(for: .milliseconds(200))
        guard let window = system.window(for: controller) else { return .nan }
        // B (b.mp4) is 480x270, A (a.mp4) 640x360: the window shows B once it takes that size. (Recording the
        // window's frames would add an MD5 per frame on the engine thread, inside the time measured.)
        let showsB: @Sendable () -> Bool = { window.renderSize?.width == 480 }
        var elapsed = Double.nan
        if prepared {
            guard
                let ready = try? await ContentSource.prepared(
                    for: PlayerItem(url: swapTarget), clock: .host, audio: true)
            else {
                return .nan
            }
            let start = Date()
            controller.contentSource = ready.contentSource
            ready.player.play()
            player.pause()
            elapsed = await Self.poll(showsB, since: start)
            ready.player.invalidate()
        } else {
            // Waited for as B alone is (a poller would take CPU from the decoder it times): the layer calls its
            // observers after the window's listener, so B is in the window when this one marks the moment.
            let shown = FirstFrame()
            layer.onFrame { frame in if frame.width == 480 { shown.mark() } }
            await Self.quiet()
            let start = Date()
            player.replaceCurrentItem(with: PlayerItem(url: swapTarget))
            elapsed = await shown.wait(since: start)
            if !showsB() { elapsed = .nan }
        }
        controller.invalidate()
        player.invalidate()
        return elapsed
    }
}

extension PlaybackBench {
    /// Lets a player that was just invalidated wind down before the next measured start: its decode thread finishes
    /// the frame it was decoding (libavcodec cannot be interrupted mid-frame), which on 2 cores would take CPU from
    /// the next start. The bare libav figure it is compared with is measured on a quiet machine too.
    static func quiet() async {
        try? await Task.sleep(for: .milliseconds(50))
    }

    /// Seconds from `start` until `condition` holds (polled every 100 µs; NaN after 10 s).
    static func poll(_ condition: @Sendable () -> Bool, since start: Date) async -> Double {
        while !condition() {
            if Date().timeIntervalSince(start) > 10 { return .nan }
            try? await Task.sleep(for: .microseconds(100))
        }
        return Date().timeIntervalSince(start)
    }
}

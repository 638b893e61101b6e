import Foundation
import Loading
import Playback
import PlaybackTesting

/// `playctl-bench run --dwell`: warm connections measured over scripts/netns.sh's 8 Mbit/s port. A feed's user
/// dwells on a cached item, then swipes to one whose bytes must come: does that item pay a new connection?
///
/// One measurement: a loader of its own plays the clip's first frame (a new memory-only cache: its bytes come over
/// the link, on a connection the loader then keeps or not), the link goes quiet, the loader sits idle for the dwell
/// (1 s or 30 s), then the startup of the clip's first frame from a new cache is timed (`PlayerItem` + `Player` +
/// `play()` until the first frame is shown, video only, as `bench --playback` times it) and the connections the
/// loader opened for it are counted. Each pair of dwells runs with the loader's idle lifetime at 5 s (as before
/// issue #28's connections work) and at its default, rotating the order from round to round. Target: the first frame
/// after 30 s at most 1.1x the first frame after 1 s, with the default lifetime.
public struct DwellBench: Sendable {
    /// The dwells compared: the short one is the baseline.
    public static let dwells: [Double] = [1, 30]
    /// The idle lifetimes compared: the loader's old one, then its default.
    public static let lifetimes: [Double] = [5, HTTPLoader.Configuration().idleLifetime]
    /// The long dwell's first frame allowed, as a multiple of the short one's (default lifetime).
    public static let target = 1.1

    public let file: String
    public let runs: Int

    public init(file: String?, runs: Int) {
        self.file = file ?? NetworkBench.defaultFile
        self.runs = runs
    }

    /// One lifetime and dwell: the timed first frames and the connections each opened.
    public struct Case: Sendable {
        public var lifetime: Double
        public var dwell: Double
        public var firstFrames: [Double] = []
        public var connectionsOpened: [Int] = []
    }

    /// Measures every case, `runs` rounds, saying each step on `progress`.
    /// - Throws: `BenchFailure` when the server is not running or the file is not served.
    public func run(progress: @Sendable (String) -> Void) async throws(BenchFailure) -> DwellReport {
        if let reason = NetworkBench.unavailableReason {
            throw .failed(reason.replacingOccurrences(of: "--network", with: "--dwell"))
        }
        let local = TestHTTPServer.localPath(file)
        guard !file.contains("/"), access(local, R_OK) == 0 else {
            throw .failed("\(file) is not a file of the served folder (\(TestHTTPServer.root ?? "?"))")
        }
        let url = TestHTTPServer.url(file, over: NetworkBench.mainLink)
        let quiet = LinkQuiet.find(shaped: TestHTTPServer.isShaped)
        var cases = Self.lifetimes.flatMap { lifetime in Self.dwells.map { Case(lifetime: lifetime, dwell: $0) } }
        let loadBefore = LoadAverage.oneMinute()
        for round in 0..<runs {
            for offset in cases.indices {
                let index = (round + offset) % cases.count
                let one = cases[index]
                progress("round \(round + 1)/\(runs): idle lifetime \(one.lifetime) s, dwell \(one.dwell) s")
                let (seconds, opened) = await Self.measure(url, lifetime: one.lifetime, dwell: one.dwell, quiet: quiet)
                guard seconds.isFinite else { throw .failed("no first frame of \(url) within 10 s") }
                cases[index].firstFrames.append(seconds)
                cases[index].connectionsOpened.append(opened)
            }
        }
        return DwellReport(
            file: file, url: url, runs: runs, shaped: TestHTTPServer.isShaped, cases: cases,
            loadAverage: (loadBefore, LoadAverage.oneMinute()))
    }

    /// The first frame of `url` after a loader with idle lifetime `lifetime` sat idle `dwell` seconds, and the
    /// connections the loader opened for it.
    static func measure(_ url: String, lifetime: Double, dwell: Double, quiet: LinkQuiet) async -> (Double, Int) {
        var configuration = HTTPLoader.Configuration()
        configuration.idleLifetime = lifetime
        let loader = HTTPLoader(configuration: configuration)
        quiet.wait()
        _ = await PlaybackBench.startup(audio: false) {
            PlayerItem(url: url, loading: RemoteLoading(cache: ByteCache(), transport: loader))
        }
        // The warm-up's last range ends, and its bytes leave the link, before the dwell starts.
        try? await Task.sleep(for: .milliseconds(500))
        quiet.wait()
        try? await Task.sleep(for: .seconds(dwell))
        let before = loader.statistics.connectionsOpened
        let seconds = await PlaybackBench.startup(audio: false) {
            PlayerItem(url: url, loading: RemoteLoading(cache: ByteCache(), transport: loader))
        }
        return (seconds, loader.statistics.connectionsOpened - before)
    }
}

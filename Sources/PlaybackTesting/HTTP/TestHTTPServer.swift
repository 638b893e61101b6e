import Foundation

/// The real HTTP server the network tests use: nginx on a shaped loopback, started by `scripts/netns.sh` (which
/// runs the test command inside a private network namespace). Tests read where it is from the environment.
public enum TestHTTPServer {
    /// The ports `scripts/netns.sh` serves on, and the rate each is shaped to.
    public enum Link: Int, Sendable, CaseIterable {
        case unshaped = 18000
        case cellular3G = 18016
        /// 1.6 Mbit/s for one suite alone (ServerFaultTests' proxies: a resumed connection queued behind the feed
        /// benchmark's downloads on 18016 got no byte in 8 s and timed out, where the test expects the resets).
        case cellular3GAlone = 18017
        case mbit2 = 18002
        /// 2 Mbit/s for one suite alone (LinkPriorityTests, which counts the bytes a fetch gets in a second: beside
        /// the network benchmark's downloads on 18002, a fetch queued behind them got none for a second).
        case mbit2Alone = 18003
        case mbit8 = 18008
        /// 8 Mbit/s for one suite alone (ShapedLinkTests, which times a play against the link's rate: the
        /// suites and benchmark examples sharing 18008 took part of it, and a 5 Mbit/s clip stalled).
        case mbit8Alone = 18009
        case mbit20 = 18020

        /// The link's rate in bits per second (nil: unshaped).
        public var bitsPerSecond: Double? {
            switch self {
            case .unshaped: return nil
            case .cellular3G, .cellular3GAlone: return 1_600_000
            case .mbit2, .mbit2Alone: return 2_000_000
            case .mbit8, .mbit8Alone: return 8_000_000
            case .mbit20: return 20_000_000
            }
        }
    }

    /// `http://127.0.0.1` when the server runs, else nil.
    public static var base: String? { ProcessInfo.processInfo.environment["PLAYCTL_HTTP"] }

    /// Whether the server runs (the tests were started through `scripts/netns.sh`).
    public static var isAvailable: Bool { base != nil }

    /// Whether the ports are shaped (a namespace could be made).
    public static var isShaped: Bool { ProcessInfo.processInfo.environment["PLAYCTL_HTTP_SHAPED"] == "1" }

    /// The folder the server serves.
    public static var root: String? { ProcessInfo.processInfo.environment["PLAYCTL_HTTP_ROOT"] }

    /// The URL of `path` (a file of the served folder, or `noranges/...`, `stall/...`, `status/500`) over `link`.
    public static func url(_ path: String, over link: Link = .unshaped) -> String {
        "\(base ?? "http://127.0.0.1"):\(link.rawValue)/\(path)"
    }

    /// The local copy of a served file.
    public static func localPath(_ name: String) -> String { "\(root ?? ".build/http-media")/\(name)" }

    /// Why network tests skip here (printed, so a skip is never silent); nil when they run.
    public static var skipReason: String? {
        guard !isAvailable else { return nil }
        let reason = "no test HTTP server: run the tests through scripts/netns.sh (scripts/test.sh does)"
        FileHandle.standardError.write(Data("WARNING: network tests skipped: \(reason)\n".utf8))
        return reason
    }

    /// Why tests of a shaped link skip here; nil when they run.
    public static var shapedSkipReason: String? {
        if let reason = skipReason { return reason }
        guard !isShaped else { return nil }
        let reason = "the loopback is not shaped (no network namespace could be made)"
        FileHandle.standardError.write(Data("WARNING: shaped-link tests skipped: \(reason)\n".utf8))
        return reason
    }
}

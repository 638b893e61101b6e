import Foundation

/// One play of the ABR run: a player on the link whose rate changes, what it played and how.
public struct ABRPlay: Sendable {
    /// `playctl`, `mpv --hls-bitrate=max`, `mpv --hls-bitrate=min`.
    public var player: String
    public var command: [String]
    /// Start to exit.
    public var wallSeconds: Double
    /// Stalls after the first frame; nil when they could not be counted.
    public var stalls: Int?
    /// How the stalls were counted.
    public var stallSource: String
    /// Changes of variant while playing.
    public var switches: Int
    /// The variant played for each segment of the measured span (nil: none fetched).
    public var segmentVariants: [Int?]
    /// The bits of the segments played over their duration.
    public var playedBitsPerSecond: Double
    /// The link's mean rate over the play (start to exit).
    public var linkMeanBitsPerSecond: Double
    /// Responses on the port and the bytes sent for them, headers included.
    public var requests: Int
    public var wireBytes: Int64
    /// playctl's variant decisions as `v0 -> v3 from segment 4 (8.0 s): reason, estimate 7.6 Mbit/s` (none for mpv).
    public var decisions: [String] = []

    /// Played over the link's mean.
    public var playedFraction: Double { playedBitsPerSecond / max(linkMeanBitsPerSecond, 1) }

    /// The variants played as runs: `v0 x3, v1 x2, v3 x2`.
    public var variantRuns: String { Self.runs(segmentVariants) }

    /// `v0 x3, v1 x2, v3 x2` for `[0, 0, 0, 1, 1, 3, 3]`.
    static func runs(_ variants: [Int?]) -> String {
        var runs: [(Int?, Int)] = []
        for variant in variants {
            if let last = runs.last, last.0 == variant {
                runs[runs.count - 1].1 += 1
            } else {
                runs.append((variant, 1))
            }
        }
        return runs.map { (variant, count) in (variant.map { "v\($0)" } ?? "none") + " x\(count)" }
            .joined(separator: ", ")
    }

    /// The bits of the segments `variants` names (nil entries skipped) over their duration.
    /// Whether this is a run of playctl (the HLS one, "playctl", or "playctl, DASH").
    var isPlayctl: Bool { player.hasPrefix("playctl") }

    /// Whether the run met the ABR targets: no stall, at most ``ABRBench/maximumSwitches`` switches, played at least
    /// ``ABRBench/playedFractionTarget`` of the link's mean.
    var metTargets: Bool {
        (stalls ?? .max) <= ABRBench.maximumStalls && switches <= ABRBench.maximumSwitches
            && playedFraction >= ABRBench.playedFractionTarget
    }

    static func playedRate(_ variants: [Int?], ladder: LocalLadder) -> Double {
        var bits = 0.0
        var seconds = 0.0
        for (index, variant) in variants.enumerated() {
            guard let variant, ladder.variants.indices.contains(variant),
                ladder.variants[variant].segments.indices.contains(index)
            else { continue }
            let segment = ladder.variants[variant].segments[index]
            bits += Double(segment.bytes) * 8
            seconds += segment.duration
        }
        return seconds > 0 ? bits / seconds : 0
    }

    /// The variant mpv played for each of `count` segments: `--hls-bitrate` fixes one for the whole play (FFmpeg's
    /// HLS demuxer does not adapt), the one whose segments it fetched most; the access log also shows the first
    /// segments of the others, which the demuxer reads while it probes every variant at the start. nil for a
    /// segment of it that was never fetched.
    static func followedVariant(_ responses: [AccessLog.Response], ladder: LocalLadder, count: Int) -> [Int?] {
        var fetched = [Set<Int>](repeating: [], count: ladder.variants.count)
        for response in responses where response.status == 200 || response.status == 206 {
            if let (variant, index) = ladder.segment(atPath: response.path), index < count {
                fetched[variant].insert(index)
            }
        }
        guard let followed = fetched.indices.max(by: { fetched[$0].count < fetched[$1].count }) else {
            return [Int?](repeating: nil, count: count)
        }
        return (0..<count).map { fetched[followed].contains($0) ? followed : nil }
    }

    /// Changes of variant along `variants` (unfetched segments skipped).
    static func changes(_ variants: [Int?]) -> Int {
        let played = variants.compactMap { $0 }
        return zip(played, played.dropFirst()).filter { $0 != $1 }.count
    }

    /// mpv's stalls in its `--log-file` (verbose, each line `[seconds][level][module] text`): `Enter buffering` lines
    /// after the first `playback restart complete`, except one within ``mpvStartupSeconds`` of it (mpv restarts
    /// playback at once and then waits for its cache: that wait is the startup, not a stall). nil without a start.
    static func mpvStalls(log: String) -> Int? {
        let lines = log.split(separator: "\n")
        guard let started = lines.firstIndex(where: { $0.contains("playback restart complete") }) else { return nil }
        let start = logSeconds(lines[started]) ?? 0
        return lines[started...].filter { line in
            line.contains("Enter buffering") && (logSeconds(line) ?? .infinity) - start > mpvStartupSeconds
        }.count
    }

    /// How long after its start mpv's first wait for the cache counts as the startup.
    static let mpvStartupSeconds = 0.5

    /// `12.345` of `[  12.345][v][cplayer] ...`.
    static func logSeconds(_ line: Substring) -> Double? {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return nil }
        return Double(line[line.index(after: line.startIndex)..<close].trimmingCharacters(in: .whitespaces))
    }
}

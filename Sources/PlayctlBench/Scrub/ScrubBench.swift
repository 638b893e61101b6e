import Foundation
import PlaybackTesting
import PlayctlOutput

/// `playctl-bench run --scrub`: a drag of the seek bar over a long video, against a plain exact seek to where the
/// drag ends, in one run.
///
/// Each run spawns two players on the real clock (`--audio null`), alternating:
/// 1. `playctl play F --scrub A-B@0.5/2 --until 5 --json`: half a second in, a drag from 2% to 98.3% of the
///    duration in 2 s (60 positions through `beginScrubbing`, `scrub(to:)`, `endScrubbing`); its `metric.scrub`:
///    frames shown while dragging, the first one's latency from the drag's start, the exact frame's latency from the
///    drag's end, where it landed.
/// 2. `playctl play F --seek B@0.5 --until 3 --json`: an exact seek to the same time; its
///    `metric.seekDidComplete` latency.
///
/// Targets (issue #29): a frame shown for at least 50 of the 60 positions, the first within 50 ms, the exact frame at
/// the end within 1.2x the plain exact seek (medians over the runs).
public struct ScrubBench: Sendable {
    public let file: String?
    public let runs: Int
    public let playctl: String

    public init(file: String?, runs: Int, playctl: String = BenchTools.playctl()) {
        self.file = file
        self.runs = runs
        self.playctl = playctl
    }

    /// The drag: from 2% of the duration to 98.3% of it (between two keyframes of a file with one every 2 s).
    static func drag(duration: Double) -> (from: Double, to: Double) {
        ((duration * 0.02 * 1000).rounded() / 1000, (duration * 0.983 * 1000).rounded() / 1000)
    }

    public func run(progress: @Sendable (String) -> Void) throws(BenchFailure) -> ScrubReport {
        guard let clip = file ?? ThumbnailBench(file: nil, runs: runs).clipPath() else {
            throw .failed("no long.mp4: run scripts/make-http-media.sh (scripts/netns.sh does), or give --file")
        }
        let probe = try PosterBench.runChecked(playctl, ["probe", clip, "--json"])
        guard let duration = Self.object(probe.outputText)?["duration"] as? Double, duration > 1 else {
            throw .failed("\(clip): no duration in playctl probe's output")
        }
        let (from, to) = Self.drag(duration: duration)
        let (dragText, toText) = (DecimalText.format(from) + "-" + DecimalText.format(to), DecimalText.format(to))
        var report = ScrubReport(file: clip, from: from, to: to, runs: [])
        for index in 1...runs {
            progress("run \(index) of \(runs): a drag \(dragText) s, then an exact seek to \(toText) s")
            // Each run ends 2.5 s after its last seek was asked for: its figures are the metrics' own latencies, and
            // a landing that came after the run's end on a saturated machine (1 s later, as before) was reported as
            // not landed.
            let scrub = try PosterBench.runChecked(
                playctl, ["play", clip, "--scrub", dragText + "@0.5/2", "--until", "5", "--json", "--audio", "null"])
            let seek = try PosterBench.runChecked(
                playctl, ["play", clip, "--seek", toText + "@0.5", "--until", "3", "--json", "--audio", "null"])
            guard let drag = Self.event("metric.scrub", in: scrub.outputText) else {
                throw .failed("playctl play --scrub printed no metric.scrub: \(scrub.errorText)")
            }
            guard let landed = Self.event("metric.seekDidComplete", in: seek.outputText),
                let latency = landed["latency"] as? Double
            else { throw .failed("playctl play --seek printed no metric.seekDidComplete: \(seek.errorText)") }
            report.runs.append(
                ScrubReport.Run(
                    positions: drag["positions"] as? Int ?? 0, framesShown: drag["framesShown"] as? Int ?? 0,
                    firstFrameMs: drag["firstFrameMs"] as? Double, exactMs: drag["exactMs"] as? Double,
                    landedTime: drag["landedTime"] as? Double, seekMs: latency * 1000,
                    seekLandedTime: landed["landedTime"] as? Double))
        }
        return report
    }

    /// The first JSON line of `output` whose `event` is `name`.
    static func event(_ name: String, in output: String) -> [String: Any]? {
        for line in output.split(separator: "\n") where line.contains("\"\(name)\"") {
            if let object = object(String(line)), object["event"] as? String == name { return object }
        }
        return nil
    }

    /// `text` as a JSON object.
    static func object(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }
}

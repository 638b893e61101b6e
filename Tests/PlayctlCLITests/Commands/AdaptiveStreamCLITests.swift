import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

/// `play`, `probe`, `frames` and `frame` on the HLS and DASH ladders of `scripts/make-ladder-media.sh`, served by
/// `scripts/netns.sh`: the variant limits as options, the variants listed, the frames of the variant playback
/// starts with (a new process starts from the default estimate, 500 kbit/s: the lowest rung, 360p) bit-exact
/// against ffmpeg's decode of that rung's progressive file.
@Suite("playctl on HLS and DASH ladders")
struct AdaptiveStreamCLITests {
    static var serverMissing: Bool { TestHTTPServer.skipReason != nil || LadderMedia.skipReason != nil }

    /// The JSON Lines of `play --json` whose event is `name`.
    static func events(_ name: String, in result: CLIProcess.Result) throws -> [JSONValue] {
        try result.outputLines.map { try JSONValue(parsing: $0) }.filter { $0["event"]?.stringValue == name }
    }

    @Test(
        "play --max-bitrate 1200000: one choice, 360p, initial, played to the end",
        .enabled(if: !serverMissing, "needs scripts/netns.sh"))
    func playWithPeakBitRate() async throws {
        let url = LadderMedia.url("hls-ts/master.m3u8")
        let result = try await CLIProcess.run(
            ["play", url, "--json", "--untimed", "--max-bitrate", "1200000"], timeout: 300)
        #expect(result.status == 0, "\(result.standardError)")
        let switches = try Self.events("item.variantSwitch", in: result)
        try #require(switches.count == 1, "\(switches)")
        #expect(switches[0]["to"]?["resolution"]?.stringValue == "640x360")
        #expect(switches[0]["reason"]?.stringValue == "initial")
        #expect(try Self.events("item.didPlayToEnd", in: result).count == 1, "\(result.standardOutput.suffix(2000))")
        // The choice as metric events: its start, and its end once the reader got to its first segment.
        let starts = try Self.events("metric.variantSwitchStart", in: result)
        let ends = try Self.events("metric.variantSwitch", in: result)
        try #require(starts.count == 1 && ends.count == 1, "\(starts) \(ends)")
        for metric in [starts[0], ends[0]] {
            #expect(metric["from"] == .null, "the first choice: \(metric)")
            #expect(metric["to"]?["resolution"]?.stringValue == "640x360" && metric["segment"]?.intValue == 0)
            #expect(metric["reason"]?.stringValue == "initial" && metric["loadedTimeRanges"]?.arrayValue != nil)
        }
        #expect(ends[0]["didSucceed"]?.boolValue == true)
        #expect(ends[0]["sessionID"]?.stringValue == starts[0]["sessionID"]?.stringValue)
        #expect(starts[0]["didSucceed"] == nil)
    }

    @Test(
        "play --max-resolution 100x100: no variant fits, the lowest plays to the end",
        .enabled(if: !serverMissing, "needs scripts/netns.sh"))
    func playWithTinyMaximumResolution() async throws {
        let url = LadderMedia.url("hls-ts/master.m3u8")
        let result = try await CLIProcess.run(
            ["play", url, "--json", "--untimed", "--max-resolution", "100x100"], timeout: 300)
        #expect(result.status == 0, "\(result.standardError)")
        let switches = try Self.events("item.variantSwitch", in: result)
        #expect(!switches.isEmpty)
        #expect(switches.allSatisfy { $0["to"]?["resolution"]?.stringValue == "640x360" }, "\(switches)")
        #expect(try Self.events("item.didPlayToEnd", in: result).count == 1)
    }

    /// A second item in the same process starts from the estimate the first one measured (loopback: tens of
    /// Mbit/s), above the lowest rung: there the limits decide its first choice. Without them it starts higher
    /// than 360p (the control); `--max-bitrate 1200000` keeps it at 360p, `--max-resolution 960x540` at 540p.
    @Test(
        "play --swap in the same process: the limits decide the second item's first choice from a high estimate",
        .enabled(if: !serverMissing, "needs scripts/netns.sh"),
        arguments: [
            ([String](), nil), (["--max-bitrate", "1200000"], "640x360"), (["--max-resolution", "960x540"], "960x540"),
        ] as [([String], String?)])
    func limitsOfASecondItem(limits: [String], expected: String?) async throws {
        let url = LadderMedia.url("hls-ts/master.m3u8")
        let result = try await CLIProcess.run(
            ["play", url, "--swap", url, "--swap-at", "3", "--swap-mode", "item", "--json"] + limits, timeout: 300)
        #expect(result.status == 0, "\(result.standardError)")
        let switches = try Self.events("item.variantSwitch", in: result)
        let firsts = switches.filter { $0["reason"]?.stringValue == "initial" }
        try #require(firsts.count == 2, "\(switches)")
        #expect(firsts[0]["to"]?["resolution"]?.stringValue == "640x360", "the default start estimate")
        let second = try #require(firsts[1]["to"]?["resolution"]?.stringValue)
        #expect((firsts[1]["estimate"]?.doubleValue ?? 0) > 6_000_000, "\(firsts[1])")
        if let expected {
            #expect(second == expected, "\(firsts[1])")
        } else {
            #expect(second != "640x360", "without limits: \(firsts[1])")
        }
        #expect(try Self.events("item.didPlayToEnd", in: result).count == 1)
    }

    @Test(
        "probe --json: hls and dash, the ladder's 4 variants, the tracks of the first",
        .enabled(if: !serverMissing, "needs scripts/netns.sh"),
        arguments: [
            ("hls-ts/master.m3u8", "hls"), ("hls-fmp4/master.m3u8", "hls"), ("dash/manifest.mpd", "dash"),
            ("hls-audio/master.m3u8", "hls"),
        ])
    func probeJSON(manifest: String, format: String) async throws {
        let result = try await CLIProcess.run(["probe", LadderMedia.url(manifest), "--json"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try JSONValue(parsing: result.standardOutput)
        #expect(report["format"]?.stringValue == format)
        #expect(report["container"]?.stringValue?.isEmpty == false)
        let variants = try #require(report["variants"]?.arrayValue)
        #expect(
            variants.map { $0["resolution"]?.stringValue } == LadderMedia.rungs.map { "\($0.width)x\($0.height)" })
        #expect(variants.allSatisfy { ($0["bandwidth"]?.intValue ?? 0) > 0 }, "\(variants)")
        #expect(variants.allSatisfy { $0["codecs"] != nil && $0["id"]?.stringValue != nil })
        #expect(report["renditions"]?.arrayValue != nil)
        let duration = try #require(report["duration"]?.doubleValue)
        #expect(abs(duration - LadderMedia.duration) < 0.5, "\(duration)")
        let tracks = try #require(report["tracks"]?.arrayValue)
        let video = try #require(tracks.first { $0["kind"]?.stringValue == "video" }, "\(tracks)")
        #expect(video["width"]?.intValue == 640 && video["height"]?.intValue == 360, "the variant it starts with")
        // Muxed in the variant (hls-ts, hls-fmp4) or a rendition of its own (dash, hls-audio): the audio is listed.
        #expect(tracks.contains { $0["kind"]?.stringValue == "audio" }, "\(tracks)")
    }

    @Test(
        "probe without --json: a Variant line per variant", .enabled(if: !serverMissing, "needs scripts/netns.sh"))
    func probeText() async throws {
        let result = try await CLIProcess.run(["probe", LadderMedia.url("hls-ts/master.m3u8")], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.outputLines.filter { $0.hasPrefix("Variant ") }
        #expect(lines.count == 4, "\(result.standardOutput)")
        for (line, rung) in zip(lines, LadderMedia.rungs) {
            #expect(line.contains("\(rung.width)x\(rung.height)") && line.contains("bit/s"), "\(line)")
        }
        #expect(result.outputLines.contains { $0.hasPrefix("Format:") && $0.contains("hls") })
    }

    @Test(
        "frames --md5: ffmpeg's framemd5 of the 360p file (TS, fMP4, DASH); frame --at 5 one of those frames",
        .enabled(if: !serverMissing, "needs scripts/netns.sh"),
        arguments: ["hls-ts/master.m3u8", "hls-fmp4/master.m3u8", "dash/manifest.mpd"])
    func framesBitExact(manifest: String) async throws {
        let url = LadderMedia.url(manifest)
        let reference = try await LadderMedia.frameMD5s(rung: 0)
        try #require(reference.count == 360)
        let result = try await CLIProcess.run(["frames", url, "--md5"], timeout: 300)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.outputLines
        #expect(lines.compactMap { $0.split(separator: " ").last.map(String.init) } == reference)
        let first = try #require(lines.first?.split(separator: " ").first.flatMap { Double($0) })
        let frame = try await CLIProcess.run(["frame", url, "--at", "5", "--md5"], timeout: 120)
        #expect(frame.status == 0, "\(frame.standardError)")
        let line = try #require(frame.outputLines.first)
        #expect(lines.contains(line), "\(line)")
        let time = try #require(line.split(separator: " ").first.flatMap { Double($0) })
        #expect(abs(time - (first + 5)) < 0.1, "\(line), first frame at \(first)")
    }

    @Test(
        "--max-bitrate and --max-resolution: a bad value is a usage error",
        arguments: [
            ["--max-bitrate", "0"], ["--max-bitrate", "-5"], ["--max-bitrate", "x"], ["--max-bitrate", "1.5"],
            ["--max-resolution", "640"], ["--max-resolution", "0x360"], ["--max-resolution", "axb"],
            ["--max-resolution", "640x-1"],
        ])
    func usageErrors(option: [String]) async throws {
        for command in ["play", "frames", "probe"] {
            let extra = command == "frames" ? ["--md5"] : []
            let result = try await CLIProcess.run([command, "a.mp4"] + extra + option)
            #expect(result.status == 2, "\(command) \(option)")
            #expect(result.standardOutput == "")
            #expect(result.standardError.contains("'\(option[0])'"), "\(result.standardError)")
            #expect(result.standardError.contains("see 'playctl \(command) --help'"), "\(result.standardError)")
        }
    }
}

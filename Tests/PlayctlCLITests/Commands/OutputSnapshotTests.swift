import Foundation
import PlaybackTesting
import Testing

/// What `playctl` (and `playctl-bench`) prints for help, version and usage errors, byte for byte, against the texts committed in
/// `Tests/PlayctlCLITests/Snapshots/`: a change to the parser or to a command's declaration that alters a single
/// byte of them fails here. When a change is meant, record the new texts with `PLAYCTL_RECORD_SNAPSHOTS=1 swift test
/// --filter OutputSnapshotTests` and review the diff.
@Suite("playctl help and usage errors, byte for byte")
struct OutputSnapshotTests {
    static let directory = Repository.url("Tests/PlayctlCLITests/Snapshots")

    /// `playctl --help`, `--version` and every command's `--help`, each in its own file; `playctl-bench`'s too.
    static let helpCases: [(file: String, tool: String, arguments: [String])] =
        [
            ("help/playctl-bench.txt", CLIProcess.bench, ["--help"]),
            ("help/bench.txt", CLIProcess.bench, ["run", "--help"]),
        ] + playctlHelpCases.map { ($0.file, "playctl", $0.arguments) }

    static let playctlHelpCases: [(file: String, arguments: [String])] = [
        ("help/playctl.txt", ["--help"]),
        ("help/version.txt", ["--version"]),
        ("help/probe.txt", ["probe", "--help"]),
        ("help/frames.txt", ["frames", "--help"]),
        ("help/frame.txt", ["frame", "--help"]),
        ("help/play.txt", ["play", "--help"]),
        ("help/feed.txt", ["feed", "--help"]),
        ("help/soak.txt", ["soak", "--help"]),
        ("help/poster.txt", ["poster", "--help"]),
        ("help/thumbnails.txt", ["thumbnails", "--help"]),
        ("help/report.txt", ["report", "--help"]),
    ]

    /// Command lines that fail before any command runs: every kind of parser error, and every check a command makes
    /// on its own values (in the order it makes them, where two values are wrong at once). `bench` stands for
    /// `playctl-bench run`.
    static let usageErrorCases: [[String]] = [
        [], ["frmae"], ["bogus"], ["--bogus"], ["--hepl"], ["--versoin"], ["-x"], ["--help=1"],
        ["help", "frmae"], ["help", "probe", "extra"],
        ["probe"], ["probe", "a.mp4", "b.mp4"], ["probe", "a.mp4", "--jsn"], ["probe", "a.mp4", "--json=1"],
        ["frames", "a.mp4"], ["frames", "a.mp4", "--md5", "--count"], ["frames", "a.mp4", "--md"],
        ["frame", "a.mp4", "--md5"], ["frame", "a.mp4", "--at"], ["frame", "a.mp4", "--at", "x", "--md5"],
        ["frame", "a.mp4", "--at", "-1", "--md5"], ["frame", "a.mp4", "--at", "inf", "--md5"],
        ["frame", "a.mp4", "--at", "nan", "--md5"], ["frame", "a.mp4", "--at", "1", "--at", "2", "--md5"],
        ["frame", "a.mp4", "--at", "1", "-o"], ["frame", "a.mp4", "--at", "1", "-ox.png", "--md5"],
        ["frame", "a.mp4", "--at", "1", "--keyframe=yes", "--md5"], ["frame", "a.mp4", "--at", "1", "-x"],
        ["frame", "a.mp4", "--at", "1"],
        ["play"], ["play", "a.mp4", "--rate", "9"], ["play", "a.mp4", "--rate", "x"],
        ["play", "a.mp4", "--rate", "0.1"],
        ["play", "a.mp4", "--until", "-1"], ["play", "a.mp4", "--until", "x"], ["play", "a.mp4", "--seek", "x"],
        ["play", "a.mp4", "--seek", "1@x"], ["play", "a.mp4", "--seek", "1@2@3"], ["play", "a.mp4", "--seek", "-1"],
        ["play", "a.mp4", "--seek", "1@-2"], ["play", "a.mp4", "--swap-at", "1"],
        ["play", "a.mp4", "--swap-mode", "item"],
        ["play", "a.mp4", "--swap", "b.mp4", "--swap-mode", "bogus"],
        ["play", "a.mp4", "--swap", "b.mp4", "--swap-at", "-1"],
        ["play", "a.mp4", "--swap", "b.mp4", "--swap-at", "x"], ["play", "a.mp4", "--metrics"],
        ["play", "a.mp4", "--no-audio=1"], ["play", "a.mp4", "--seek", "x", "--until", "x"],
        ["play", "a.mp4", "--until", "x", "--rate", "x"],
        ["play", "a.mp4", "--rate", "9", "--swap", "b.mp4", "--swap-at", "x"],
        ["play", "a.mp4", "--pip", "--swap-at", "x", "--swap", "b.mp4"],
        ["report"], ["report", "run.jsonl"], ["play", "a.mp4", "--scrub", "5-1"],
        ["play", "a.mp4", "--scrub", "0-5@1/2", "--untimed"], ["thumbnails", "a.mp4"],
        ["thumbnails", "a.mp4", "--every", "0", "--size", "8x8", "--sprite", "s.jpg", "--vtt", "t.vtt"],
        ["thumbnails", "a.mp4", "--every", "1", "--size", "8", "--sprite", "s.jpg", "--vtt", "t.vtt"],
        ["bench", "--runs", "0"], ["bench", "--runs", "x"], ["bench", "--runs", "00"], ["bench", "--runs", "-01"],
        ["bench", "a.mp4"], ["bench", "--file"], ["bench", "--playback=1"],
        ["soak", "--swaps", "-1"], ["soak", "--seeks", "x"], ["soak", "--swaps", "10000001"],
        ["soak", "--swaps", "-05", "--seeks", "x"], ["soak", "--seeks", "-05", "--swaps", "x"], ["soak", "--media"],
        ["feed"], ["feed", "Media", "--swipes", "-1"], ["feed", "Media", "--swipes", "x"],
        ["feed", "Media", "--dwell", "0.1"], ["feed", "Media", "--seed", "-1"], ["feed", "Media", "--pool", "1"],
        ["feed", "Media", "--pool", "17"], ["feed", "Media", "--network", "wifi"],
        ["feed", "Media", "--script", "s.json", "--swipes", "3"],
        ["feed", "Media", "--seed", "2", "--script", "s.json"],
        ["feed", "Media", "--script", "s.json", "--dwell", "1"], ["feed", "Media", "--cache-size", "2000000"],
        ["feed", "Media", "--dwell", "x", "--swipes", "-1"],
        ["probe", "a.mp4", "--cache-size", "100000000"], ["probe", "a.mp4", "--cache-dir", "d", "--cache-size", "1"],
        ["play", "a.mp4", "--cache-dir", "d", "--cache-size", "x"],
        ["play", "a.mp4", "--max-bitrate", "0"], ["play", "a.mp4", "--max-bitrate", "x"],
        ["play", "a.mp4", "--max-resolution", "640"], ["frames", "a.mp4", "--md5", "--max-resolution", "0x360"],
    ]

    static var isRecording: Bool { ProcessInfo.processInfo.environment["PLAYCTL_RECORD_SNAPSHOTS"] == "1" }

    @Test func helpAndVersionTexts() async throws {
        for (file, tool, arguments) in Self.helpCases {
            let result = try await CLIProcess.run(arguments, tool: tool)
            #expect(result.status == 0 && result.standardError == "", "\(arguments)")
            try Self.compare(result.standardOutput, with: file)
        }
    }

    @Test func usageErrorTexts() async throws {
        var text = ""
        for line in Self.usageErrorCases {
            let (tool, arguments) =
                line.first == "bench" ? (CLIProcess.bench, ["run"] + line.dropFirst()) : ("playctl", line)
            let result = try await CLIProcess.run(arguments, tool: tool)
            #expect(result.status == 2, "\(arguments): a usage error")
            text += "$ \(tool) " + arguments.joined(separator: " ") + "\n"
            text += "exit \(result.status)\n"
            text += "stdout:\n" + result.standardOutput
            text += "stderr:\n" + result.standardError + "\n"
        }
        try Self.compare(text, with: "usage-errors.txt")
    }

    /// Compares `text` with the snapshot file, or writes the file when recording. A missing file is a test issue
    /// naming it and how to record it (the other snapshots are compared all the same); nothing is written unless
    /// `PLAYCTL_RECORD_SNAPSHOTS=1`.
    static func compare(_ text: String, with file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(file)
        if isRecording {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            return
        }
        let record = "PLAYCTL_RECORD_SNAPSHOTS=1 swift test --filter OutputSnapshotTests records it; review the diff"
        guard FileManager.default.fileExists(atPath: url.path) else {
            Issue.record("the snapshot \(url.path) is missing (\(record))", sourceLocation: sourceLocation)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(
            text == expected, "\(url.path) differs from what playctl printed (\(record))",
            sourceLocation: sourceLocation)
    }
}

import Foundation
import PlaybackTesting
import Testing

/// The adaptive-streaming test media of `scripts/make-ladder-media.sh`, checked with ffprobe and ffmpeg: the
/// streaming tests build on its claims (every format the same encode, aligned segments, declared rates).
@Suite("Ladder media", .enabled(if: LadderMedia.skipReason == nil, "needs scripts/make-ladder-media.sh's ladder"))
struct LadderMediaTests {
    /// What ffprobe says of `arguments` (its standard output, trimmed); an issue when it fails or complains.
    static func probe(_ arguments: [String]) async throws -> String {
        let ffprobe = try #require(ProcessRunner.findExecutable("ffprobe"), "ffprobe is not in PATH")
        let result = try await ProcessRunner.run(
            ffprobe, ["-v", "error"] + arguments, standardOutput: .capture, standardError: .capture, timeout: 60)
        #expect(result.succeeded && result.errorText.isEmpty, "ffprobe \(arguments): \(result.errorText)")
        return result.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The md5 of every video frame ffmpeg decodes from `input` (a path in the ladder), as one digest.
    static func videoMD5(_ input: String) async throws -> String {
        let ffmpeg = try #require(ProcessRunner.findExecutable("ffmpeg"), "ffmpeg is not in PATH")
        // HLS's demuxer opens only media files by default (not key.bin); ffmpeg refuses the option elsewhere.
        let keys = input.hasSuffix(".m3u8") ? ["-allowed_extensions", "ALL"] : []
        let result = try await ProcessRunner.run(
            ffmpeg, ["-v", "error"] + keys + ["-i", LadderMedia.path(input), "-map", "0:v:0", "-f", "md5", "-"],
            standardOutput: .capture, standardError: .capture, timeout: 120)
        #expect(result.succeeded, "ffmpeg \(input): \(result.errorText)")
        // ffmpeg 5.1's DASH demuxer says "Error when loading first fragment of playlist" while it decodes every frame
        // (of its own muxer's output too): its messages are not judged, its frames are.
        if !input.hasSuffix(".mpd") { #expect(result.errorText.isEmpty, "ffmpeg \(input): \(result.errorText)") }
        return result.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let streamCounts = [
        "hls-ts/master.m3u8": 8, "hls-fmp4/master.m3u8": 8, "hls-byterange/index.m3u8": 2, "dash/manifest.mpd": 5,
        "hls-aes/master.m3u8": 4, "hls-aes/clear/master.m3u8": 4, "hls-audio/master.m3u8": 5,
    ]

    @Test(
        "every master playlist and manifest opens in ffprobe: its streams, 12 s", arguments: streamCounts.keys.sorted())
    func opens(manifest: String) async throws {
        let fields = try await Self.probe([
            "-allowed_extensions", "ALL", "-show_entries", "format=nb_streams,duration", "-of", "csv=p=0",
            LadderMedia.path(manifest),
        ]).split(separator: ",")
        try #require(fields.count == 2, "\(manifest): \(fields)")
        #expect(Int(fields[0]) == Self.streamCounts[manifest], "\(manifest): streams")
        #expect(abs((Double(fields[1]) ?? 0) - LadderMedia.duration) < 0.05, "\(manifest): duration \(fields[1])")
    }

    @Test("the TS renditions share their PIDs, and segment N of each starts on a keyframe at the same PTS")
    func alignedTransportStreams() async throws {
        var previousStart: Int?
        for segment in 0..<Int(LadderMedia.duration / LadderMedia.segmentDuration) {
            var pids: Set<String> = []
            var starts: Set<String> = []
            for variant in LadderMedia.rungs.indices {
                let file = LadderMedia.path("hls-ts/v\(variant)/" + String(format: "seg%03d.ts", segment))
                let ids = try await Self.probe(["-show_entries", "stream=id", "-of", "csv=p=0", file])
                pids.insert(Set(ids.split(separator: "\n")).sorted().joined(separator: " "))
                starts.insert(
                    try await Self.probe([
                        "-select_streams", "v:0", "-read_intervals", "%+#1", "-show_entries", "packet=pts,flags",
                        "-of", "csv=p=0", file,
                    ]))
            }
            #expect(pids == ["0x100 0x101"], "segment \(segment): PIDs \(pids)")
            try #require(starts.count == 1, "segment \(segment): first video packets \(starts)")
            let first = try #require(starts.first).split(separator: ",")
            #expect(first.count == 2 && first[1].hasPrefix("K"), "segment \(segment) starts on a keyframe: \(first)")
            let start = try #require(Int(first[0]))
            if let previousStart { #expect(start - previousStart == 180_000, "2 s at 90 kHz after the last") }
            previousStart = start
        }
    }

    @Test("each rung is its size, with its video bit rate within 3% of its target", arguments: LadderMedia.rungs)
    func rates(rung: LadderMedia.Rung) async throws {
        let fields = try await Self.probe([
            "-select_streams", "v:0", "-show_entries", "stream=width,height,bit_rate", "-of", "csv=p=0",
            LadderMedia.path("progressive/\(rung.name).mp4"),
        ]).split(separator: ",").compactMap { Int($0) }
        try #require(fields.count == 3, "\(rung.name): \(fields)")
        #expect(fields[0] == rung.width && fields[1] == rung.height, "\(rung.name): \(fields)")
        let target = Double(rung.videoBitsPerSecond)
        #expect(abs(Double(fields[2]) - target) <= 0.03 * target, "\(rung.name): \(fields[2]) bit/s")
    }

    @Test(
        "a master declares each variant's peak and average segment rates, its size and codecs, lowest first",
        arguments: ["hls-ts", "hls-fmp4"])
    func declaredRates(folder: String) throws {
        let variants = try MasterPlaylistLines.read(LadderMedia.path("\(folder)/master.m3u8"))
        try #require(variants.count == LadderMedia.rungs.count, "\(folder): \(variants)")
        for (index, (attributes, uri)) in variants.enumerated() {
            let rung = LadderMedia.rungs[index]
            #expect(uri == "v\(index)/index.m3u8")
            #expect(attributes["RESOLUTION"] == "\(rung.width)x\(rung.height)", "\(folder) \(uri)")
            let codecs = attributes["CODECS"] ?? ""
            #expect(codecs.hasPrefix("\"avc1.64") && codecs.hasSuffix(",mp4a.40.2\""), "\(folder) \(uri): \(codecs)")
            let (peak, average) = try MasterPlaylistLines.segmentRates(LadderMedia.path("\(folder)/\(uri)"))
            let bandwidth = Double(attributes["BANDWIDTH"] ?? "") ?? 0
            let averageBandwidth = Double(attributes["AVERAGE-BANDWIDTH"] ?? "") ?? 0
            #expect(abs(bandwidth - peak) < 1, "\(folder) \(uri): BANDWIDTH \(bandwidth), peak \(peak)")
            #expect(abs(averageBandwidth - average) < 1, "\(folder) \(uri): \(averageBandwidth), \(average)")
            #expect(averageBandwidth > Double(rung.videoBitsPerSecond), "video, audio and the container's bytes")
        }
    }

    static let decodings = [
        ("hls-ts/v0/index.m3u8", "360p"), ("hls-fmp4/v0/index.m3u8", "360p"), ("hls-byterange/index.m3u8", "360p"),
        ("dash/manifest.mpd", "360p"), ("hls-aes/v0/index.m3u8", "360p"), ("hls-aes/clear/v0/index.m3u8", "360p"),
        ("hls-ts/v3/index.m3u8", "1080p"), ("hls-aes/v1/index.m3u8", "720p"),
    ]

    @Test("every format decodes to the frames of the rung's progressive file (one encode)", arguments: decodings)
    func sameFrames(input: String, rung: String) async throws {
        let reference = try await Self.videoMD5("progressive/\(rung).mp4")
        #expect(reference.hasPrefix("MD5="), "\(rung): \(reference)")
        #expect(try await Self.videoMD5(input) == reference, "\(input)")
    }

    @Test("the AES-128 renditions: 360p with the implicit IV (its sequence number), 720p with IVs written out")
    func encryptionKeys() throws {
        let implicit = try String(contentsOfFile: LadderMedia.path("hls-aes/v0/index.m3u8"), encoding: .utf8)
        let explicit = try String(contentsOfFile: LadderMedia.path("hls-aes/v1/index.m3u8"), encoding: .utf8)
        let keyLines = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-KEY:") } }
        #expect(keyLines(implicit) == ["#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\""])
        #expect(keyLines(explicit).count == 6)
        #expect(
            keyLines(explicit).last
                == "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\",IV=0x\(String(repeating: "0", count: 31))5")
        for variant in ["v0", "v1"] {
            let key = try Data(contentsOf: URL(fileURLWithPath: LadderMedia.path("hls-aes/\(variant)/key.bin")))
            #expect([UInt8](key) == LadderMedia.key)
        }
    }

    @Test(
        "the served ladder opens over HTTP (scripts/netns.sh's nginx)",
        .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"),
        arguments: ["hls-ts/master.m3u8", "hls-fmp4/master.m3u8", "dash/manifest.mpd", "hls-aes/master.m3u8"])
    func served(manifest: String) async throws {
        let streams = try await Self.probe([
            "-allowed_extensions", "ALL", "-show_entries", "format=nb_streams", "-of", "csv=p=0",
            LadderMedia.url(manifest),
        ])
        #expect(Int(streams) == Self.streamCounts[manifest], "\(manifest) over HTTP")
    }
}

import CommandLineKit

/// `playctl poster SOURCE [--at SEC] [--keyframe] [--size WxH] [--fit fill|fit] -o OUT.png` and
/// `playctl poster --batch LIST [--concurrency N] [--json]`: what it accepts. It runs in
/// `Commands/Poster/PosterCommand+Run.swift`.
struct PosterCommand: ParsableCommand {
    /// `WxH`: a poster's size in pixels.
    struct Size: Equatable, ArgumentValue {
        let width: Int
        let height: Int

        init?(argument: String) {
            let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                (1...16384).contains(width), (1...16384).contains(height)
            else { return nil }
            self.width = width
            self.height = height
        }

        static let expectedArgument = "WIDTHxHEIGHT in pixels, 1 to 16384 each (320x180)"
    }

    enum Fit: String, CaseIterable, ArgumentValue {
        case fit, fill
    }

    static let configuration = CommandConfiguration(
        name: "poster",
        abstract: "Make the poster of a video or an image: one frame, scaled, as a PNG.",
        discussion: """
            Decodes the first frame of a video (or the frame at --at), or an image (JPEG, PNG, WebP, GIF, whatever \
            libavcodec decodes), scales it to --size with --fit, and writes it as a PNG. Over http(s) only the bytes \
            the poster needs are fetched (the header and the first keyframe). A large JPEG is decoded at 1/2, 1/4 \
            or 1/8 of its size when that still covers --size.

            With --batch the sources go through one pipeline: requests for the same picture share one fetch and one \
            decode, and a memory cache answers repeats. Each poster is printed with its stages (queue wait, fetch, \
            demux, decode, scale, total), then p50 and p95 per stage and the hit and de-duplication counts.

            With --cache-dir, the bytes of http(s) sources are kept in DIR and the posters made in DIR/posters \
            (PNG, 64 MB at most, least recently used out first), so a later run reads them back without a decode.
            """,
        examples: [
            UsageExample("playctl poster clip.mp4 -o poster.png", "The first frame of clip.mp4, at its own size."),
            UsageExample(
                "playctl poster clip.mp4 --at 2 --size 320x180 --fit fill -o thumb.png",
                "The frame at 2 s, covering 320x180."),
            UsageExample(
                "playctl poster --batch list.txt --size 132x132 --json",
                "Every source in list.txt at 132x132, with timings and a summary, as JSON."),
        ])

    static var constraints: [OptionRule<Self>] {
        [
            .atMostOne(\.$batch, \.$output), .atMostOne(\.$batch, \.$time), .atMostOne(\.$batch, \.$keyframe),
            .requires(\.$concurrency, \.$batch), .requires(\.$printsJSON, \.$batch),
            .requires(\.cache.$size, \.cache.$directory),
        ]
    }

    /// What to make.
    enum Work: Equatable {
        /// One poster of `source`, written to `output`.
        case single(source: String, output: String)
        /// The posters of every line of this file.
        case batch(String)
    }

    @Argument(help: "The video or image: a path or an http(s) URL (not with --batch).") var source: String?
    @Option(
        name: "at", placeholder: "SEC", help: "The time of the video frame, in seconds (default: the first frame).",
        check: .atLeast(0, "seconds, 0 or more"))
    var time: Double?
    @Flag(help: "Use the keyframe at or before --at instead of the exact frame.") var keyframe: Bool
    @Option(placeholder: "WxH", help: "Scale to this size, aspect kept (default: the picture's own size).")
    var size: Size?
    @Option(
        placeholder: "fill|fit",
        help: "fit: the whole picture inside WxH (default); fill: WxH covered, the picture cropped to it.")
    var fit: Fit = .fit
    @Option(short: "o", placeholder: "OUT.png", help: "Write the poster as a PNG file to this path.") var output:
        String?
    @Option(
        placeholder: "LIST",
        help: """
            Make the posters of every line of LIST ('SOURCE' or 'SOURCE SEC'; '#' starts a comment) through one \
            shared pipeline, and print each with its timings, then a summary.
            """)
    var batch: String?
    @Option(
        placeholder: "N", help: "With --batch: decodes at once, 1 to 4 (default 3).",
        check: .range(1...4, "a number of decodes from 1 to 4"))
    var concurrency: Int = 3
    @Flag(name: "json", help: "With --batch: print one JSON object per poster, then the summary.") var printsJSON: Bool
    var cache = CacheOptions()

    /// Whether to decode the exact frame (not with `--keyframe`).
    var exact: Bool { !keyframe }

    /// What to make: SOURCE with -o, or --batch (`validate()` has checked there is one).
    var work: Work {
        if let batch { return .batch(batch) }
        return .single(source: source ?? "", output: output ?? "")
    }

    /// Checks that there is SOURCE with -o, or --batch.
    /// - Throws: `UsageError` for a missing or doubled source, or a SOURCE without -o.
    func validate() throws(UsageError) {
        switch (source, batch) {
        case (_?, nil):
            if output == nil { throw $output.missing() }
        case (nil, _?):
            break
        case (nil, nil):
            throw UsageError(.missingOneOf(["SOURCE", "--batch"]))
        case (_?, _?):
            throw UsageError(.mutuallyExclusive(["SOURCE", "--batch"]))
        }
    }
}

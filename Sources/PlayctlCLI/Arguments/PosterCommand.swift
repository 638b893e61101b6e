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

    static let source = OptionalArgument(
        "SOURCE", help: "The video or image: a path or an http(s) URL (not with --batch).")
    static let at = Option<Double>(
        "at", placeholder: "SEC", help: "The time of the video frame, in seconds (default: the first frame).")
    static let keyframe = Flag("keyframe", help: "Use the keyframe at or before --at instead of the exact frame.")
    static let size = Option<Size>(
        "size", placeholder: "WxH", help: "Scale to this size, aspect kept (default: the picture's own size).")
    static let fit = Option<Fit>(
        "fit", placeholder: "fill|fit",
        help: "fit: the whole picture inside WxH (default); fill: WxH covered, the picture cropped to it.")
    static let output = Option<String>(
        "output", short: "o", placeholder: "OUT.png", help: "Write the poster as a PNG file to this path.")
    static let batch = Option<String>(
        "batch", placeholder: "LIST",
        help: """
            Make the posters of every line of LIST ('SOURCE' or 'SOURCE SEC'; '#' starts a comment) through one \
            shared pipeline, and print each with its timings, then a summary.
            """)
    static let concurrency = Option<Int>(
        "concurrency", placeholder: "N", help: "With --batch: decodes at once, 1 to 4 (default 3).")
    static let json = PlayctlCommands.json("With --batch: print one JSON object per poster, then the summary.")
    static let cacheDirectory = PlayctlCommands.cacheDirectory
    static let cacheSize = PlayctlCommands.cacheSize

    static let configuration = CommandSpec(
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
        arguments: [source],
        options: [at, keyframe, size, fit, output, batch, concurrency, json, cacheDirectory, cacheSize],
        constraints: [
            .atMostOne(of: batch, output), .atMostOne(of: batch, at), .atMostOne(of: batch, keyframe),
            .requires(concurrency, batch), .requires(json, batch), .requires(cacheSize, cacheDirectory),
        ],
        examples: [
            UsageExample("playctl poster clip.mp4 -o poster.png", "The first frame of clip.mp4, at its own size."),
            UsageExample(
                "playctl poster clip.mp4 --at 2 --size 320x180 --fit fill -o thumb.png",
                "The frame at 2 s, covering 320x180."),
            UsageExample(
                "playctl poster --batch list.txt --size 132x132 --json",
                "Every source in list.txt at 132x132, with timings and a summary, as JSON."),
        ])

    /// What to make.
    enum Work: Equatable {
        /// One poster of `source`, written to `output`.
        case single(source: String, output: String)
        /// The posters of every line of this file.
        case batch(String)
    }

    let work: Work
    let time: Double?
    let exact: Bool
    let size: Size?
    let fit: Fit
    let concurrency: Int
    let printsJSON: Bool
    let cache: CacheOptions

    /// Reads and checks the arguments: SOURCE with -o, or --batch.
    /// - Throws: `UsageError` for a missing or doubled source, a negative time, a concurrency out of range.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        let source = arguments[Self.source]
        let batch = arguments[Self.batch]
        switch (source, batch) {
        case (let source?, nil):
            guard let output = arguments[Self.output] else {
                throw arguments.error(.missingOption(arguments.spelling(of: Self.output)))
            }
            work = .single(source: source, output: output)
        case (nil, let list?):
            work = .batch(list)
        case (nil, nil):
            throw arguments.error(.missingOneOf(["SOURCE", "--batch"]))
        case (_?, _?):
            throw arguments.error(.mutuallyExclusive(["SOURCE", "--batch"]))
        }
        time = try arguments[Self.at]
        if let time, time < 0 {
            throw arguments.invalidValue(
                Self.at, value: arguments.text(of: Self.at) ?? "", expected: "seconds, 0 or more")
        }
        exact = !arguments[Self.keyframe]
        size = try arguments[Self.size]
        fit = try arguments[Self.fit] ?? .fit
        concurrency = try arguments[Self.concurrency] ?? 3
        guard (1...4).contains(concurrency) else {
            throw arguments.invalidValue(
                Self.concurrency, value: String(concurrency), expected: "a number of decodes from 1 to 4")
        }
        printsJSON = arguments[Self.json]
        cache = try CacheOptions(arguments, directory: Self.cacheDirectory, size: Self.cacheSize)
    }
}

import CommandLineKit

/// `playctl thumbnails MEDIA --every SEC --size WxH [--columns N] --sprite OUT --vtt OUT [--exact] [--json]`: what
/// it accepts. It runs in `Commands/Thumbnails/ThumbnailsCommand+Run.swift`.
struct ThumbnailsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "thumbnails",
        abstract: "Make a seek bar's storyboard: a sprite sheet of thumbnails and a WebVTT track pointing into it.",
        discussion: """
            Takes one thumbnail every --every seconds: the keyframe nearest each time, found in the container's \
            sample index and decoded from its own sample alone (over http(s) only the header and those samples' \
            byte ranges are fetched), or with --exact the frame on screen at that time. Each is scaled to --size as \
            FFmpeg's scale filter scales (libswscale, bicubic), laid out --columns to a row on the sprite sheet \
            (JPEG, or PNG when its name ends in .png), and named in the WebVTT track by a cue from its time to the \
            next one's whose text is SPRITE#xywh=x,y,w,h (the sprite's file name when both files are in one folder, \
            its path as given otherwise). A container without a sample index (MPEG-TS) is read by seeking to the keyframe before each time.
            """,
        examples: [
            UsageExample(
                "playctl thumbnails clip.mp4 --every 1 --size 160x90 --sprite sprite.jpg --vtt thumbs.vtt",
                "A thumbnail of clip.mp4 every second at 160x90: sprite.jpg and thumbs.vtt."),
            UsageExample(
                "playctl thumbnails clip.mp4 --every 2 --size 128x72 --columns 2 --exact --sprite sheet.png "
                    + "--vtt sheet.vtt --json",
                "Exact frames every 2 s, two to a row, as PNG, with a JSON line per tile and a summary."),
        ])

    @Argument(help: PlayctlCommands.fileHelp) var source: String
    @Option(
        placeholder: "SEC", help: "One thumbnail every SEC seconds, from 0.",
        check: .range(0.04...86_400, "seconds from 0.04 to 86400"))
    var every: Double
    @Option(placeholder: "WxH", help: "Each thumbnail's size in pixels (the picture scaled to it).")
    var size: PosterCommand.Size
    @Option(
        placeholder: "N", help: "Thumbnails to a row of the sprite sheet (default 10).",
        check: .range(1...1000, "a number of columns from 1 to 1000"))
    var columns: Int = 10
    @Option(placeholder: "OUT.jpg", help: "Write the sprite sheet here: JPEG, or PNG when the name ends in .png.")
    var sprite: String
    @Option(placeholder: "OUT.vtt", help: "Write the WebVTT track here.") var vtt: String
    @Flag(help: "The frame on screen at each time instead of the nearest keyframe.") var exact: Bool
    @Flag(name: "json", help: "Print one JSON object per thumbnail, then a summary.") var printsJSON: Bool
}

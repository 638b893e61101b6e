import MediaIO
import PlayctlOutput

/// `playctl frames FILE (--md5 | --count) [--json]`: decodes every frame of the first video stream.
///
/// With `--md5`, one line per frame in presentation order, `<seconds, six decimals> <md5>`, where the md5 equals the
/// last column of `ffmpeg -noautorotate -i FILE -map 0:v:0 -fps_mode passthrough -f framemd5 -` line by line; with
/// `--json`, `{"time":<seconds>,"md5":"<md5>"}` per frame instead. With `--count`, only the number of frames
/// (`{"frames":N}` with `--json`): the same decode without hashing, which `bench` times against ffmpeg.
extension FramesCommand: PlayctlCommand {
    /// Decodes the whole stream and prints as it goes (through the buffered output).
    func run(_ output: StandardOutput) throws(CommandFailure) {
        let location = try MediaLocation(
            path, cache: cache, decryptionKey: decryptionKey, limits: limits.abrLimits)
        let opened = try media { () throws(MediaError) in try location.open() }
        defer { opened.close() }
        let reader = try media { () throws(MediaError) in try opened.videoReader() }
        reader.demuxer.discardAllStreams(except: reader.track.index)
        switch mode {
        case .count:
            var count = 0
            while try media({ () throws(MediaError) in try reader.nextFrame() }) != nil {
                count += 1
            }
            if printsJSON {
                try output.json(["frames": .int(count)])
            } else {
                try output.line(String(count))
            }
        case .md5:
            while let frame = try media({ () throws(MediaError) in try reader.nextFrame() }) {
                if printsJSON {
                    try output.json(["time": .double(frame.time.seconds), "md5": .string(frame.md5())])
                } else {
                    try output.line(FrameLine.text(frame))
                }
            }
        }
    }
}

/// The one-line description of a frame that `frames --md5` and `frame --md5` print: `<seconds> <md5>`.
enum FrameLine {
    /// `8.300000 0123456789abcdef0123456789abcdef`.
    static func text(_ frame: VideoFrame) -> String {
        SecondsText.format(frame.time) + " " + frame.md5()
    }
}

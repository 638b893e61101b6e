import MediaIO

/// `playctl frame FILE --at SECONDS (--md5 | -o OUT.png) [--keyframe]`: the frame on screen at one time.
///
/// Seeks exactly (the frame with the greatest presentation time not after `--at`, measured from the start of the
/// media as `ffmpeg -ss` measures it), or to the keyframe at or before it with `--keyframe`. `--md5` prints the
/// frame as `frames --md5` does (`<seconds> <md5>`); `-o` writes it as a PNG, turned upright by the track's display
/// rotation as a viewer shows it. Times past the end land on the last frame.
///
/// `--at` is a decimal, and the times playctl prints are rounded to the microsecond: a frame at 44182/90000 s prints
/// as `0.490911`, a little before its real time. So that a printed time selects its own frame, as it does for
/// `ffmpeg -ss` (which rounds to the nearest tick), a frame up to half a microsecond after `--at` counts as at it.
extension FrameCommand: PlayctlCommand {
    /// Seeks, decodes and prints or writes the frame.
    func run(_ standardOutput: StandardOutput) throws(CommandFailure) {
        let location = try MediaLocation(
            path, cache: cache, decryptionKey: decryptionKey, limits: limits.abrLimits)
        let opened = try media { () throws(MediaError) in try location.open() }
        defer { opened.close() }
        let reader = try media { () throws(MediaError) in try opened.videoReader() }
        reader.demuxer.discardAllStreams(except: reader.track.index)
        let time = MediaTime(printedSeconds: seconds)
        let mode: SeekMode = keyframeOnly ? .keyframe : .exact
        let landing = try media { () throws(MediaError) in try reader.frame(at: time, mode: mode) }
        guard let frame = landing.frame else {
            throw CommandFailure("\(path): the video stream has no frames")
        }
        switch output {
        case .md5:
            try standardOutput.line(FrameLine.text(frame))
        case .png(let destination):
            let bytes = try media { () throws(MediaError) in try PNGEncoder.encode(frame, url: path) }
            try OutputFile.write(bytes, to: destination)
        }
    }
}

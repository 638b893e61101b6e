import PlaybackTesting

extension ReferenceFrame {
    /// The line `frames --md5` and `frame --md5` print for this frame: `<time> <md5>`.
    var line: String { time + " " + md5 }
}

/// The exact-seek frame as playctl and ffmpeg decode it.
public struct SeekCheck: Sendable {
    /// The time playctl printed for the frame.
    public var playctlTime: String
    /// playctl's md5 of the frame.
    public var playctlMD5: String
    /// ffmpeg's framemd5 of the frame.
    public var ffmpegMD5: String

    /// Whether the two frames are bit-identical.
    public var isIdentical: Bool { playctlMD5 == ffmpegMD5 }
}

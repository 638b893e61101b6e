import CFFmpeg

/// FFmpeg's own logging, which by default prints to stderr from any thread.
///
/// The engine reports problems through `MediaError` and events, so FFmpeg's log is silenced unless asked for
/// (`PLAYCTL_FFMPEG_LOG=debug|verbose|info|warning|error` in the environment turns it back on).
public enum FFmpegLog {
    /// Applies the log level once per process; called by every entry point that touches FFmpeg.
    public static func configure() {
        _ = configured
    }

    private static let configured: Bool = {
        let level: Int32
        switch getenv("PLAYCTL_FFMPEG_LOG").map({ String(cString: $0) }) {
        case "debug": level = AV_LOG_DEBUG
        case "verbose": level = AV_LOG_VERBOSE
        case "info": level = AV_LOG_INFO
        case "warning": level = AV_LOG_WARNING
        case "error": level = AV_LOG_ERROR
        default: level = AV_LOG_QUIET
        }
        av_log_set_level(level)
        return true
    }()
}

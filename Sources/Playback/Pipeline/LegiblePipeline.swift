/// What the engine asks of the decoding of a selected subtitle option: a container track or sidecar file read
/// through (``TextPipeline``), or an HLS subtitle rendition read segment by segment near the playhead
/// (``SubtitleRenditionPipeline``). Each call locks once; none blocks.
protocol LegiblePipeline: AnyObject, Sendable {
    var option: MediaSelectionOption { get }
    /// Starts reading on a thread of its own.
    func start(name: String)
    func stop()
    /// Whether it is idle (read through, failed, or waiting for the playhead) and whether it failed.
    func snapshot() -> TextPipeline.Snapshot
    /// The cues shown at `time`, in order of their start.
    func shown(at time: MediaTime) -> [TextCue]
    /// The first time after `time` at which what is shown changes, among the cues read.
    func nextChange(after time: MediaTime) -> MediaTime?
    /// The playhead is at `time` (the engine tells it as it presents, not while a seek is under way).
    func playheadMoved(to time: MediaTime)
    /// Playback goes on from `target` (a seek).
    func seek(to target: MediaTime)
    /// Errors of parts skipped since the last call (a subtitle segment missing or malformed: the option plays on).
    func takeSkippedErrors() -> [MediaError]
}

extension LegiblePipeline {
    func playheadMoved(to time: MediaTime) {}
    func seek(to target: MediaTime) {}
    func takeSkippedErrors() -> [MediaError] { [] }
}

extension Array where Element == TextCue {
    /// Of cues in order of their start: those shown at `time`.
    func shown(at time: MediaTime) -> [TextCue] {
        prefix { $0.start <= time }.filter { $0.isShown(at: time) }
    }

    /// Of cues in order of their start: the first time after `time` at which one starts or ends.
    func nextChange(after time: MediaTime) -> MediaTime? {
        var next: MediaTime?
        for cue in self {
            if cue.start > time {
                next = Swift.min(next ?? cue.start, cue.start)
                break
            }
            if cue.end > time, cue.end.isNumeric { next = Swift.min(next ?? cue.end, cue.end) }
        }
        return next
    }
}

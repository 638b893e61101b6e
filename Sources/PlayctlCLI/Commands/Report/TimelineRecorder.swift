import Locking
import PlayctlOutput

/// The event objects a run prints (`play`, `feed`), kept for `--timeline`: drawn as an SVG once the run ends.
final class TimelineRecorder: Sendable {
    private let objects = Locked<[JSONValue]>([])

    /// Keeps `object` (what was printed, or would have been with --json).
    func record(_ object: JSONValue) {
        objects.withLock { $0.append(object) }
    }

    /// Writes the run's picture to `path`, titled `title`.
    func write(to path: String, title: String) throws(CommandFailure) {
        try ReportCommand.write(RunTimeline(events: objects.withLock { $0 }), title: title, to: path)
    }
}

import Foundation
import MediaIO

/// Decodes one selected subtitle option (a container track or a sidecar file) on a thread of its own, reading it
/// through from the start, into the list of its cues; the engine asks which cues are shown at a time.
///
/// Cues are few and small, so every cue read is kept: seeks and rate changes are answered from the list, and a
/// selection switched back and forth reads the track again. The thread opens its own demuxer (`open`, on the
/// thread: FFmpeg's blocking calls never run on the engine's thread or Swift's pool). All state is guarded by
/// `condition`; the engine reads it one call at a time.
final class TextPipeline: LegiblePipeline, @unchecked Sendable {
    let option: MediaSelectionOption
    private let open: @Sendable () throws(MediaError) -> TextTrackReader
    private let onChange: @Sendable () -> Void
    private let condition = NSCondition()
    /// Cues in order of their start.
    private var cues: [TextCue] = []
    private var reachedEnd = false
    private var failure: MediaError?
    private var stopped = false

    /// A pipeline for `option`, whose reader `open` makes (on the pipeline's thread).
    init(
        option: MediaSelectionOption, open: @escaping @Sendable () throws(MediaError) -> TextTrackReader,
        onChange: @escaping @Sendable () -> Void
    ) {
        self.option = option
        self.open = open
        self.onChange = onChange
    }

    func start(name: String) {
        startDedicatedThread(name: "playctl.text.\(name)") { [self] in run() }
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.unlock()
    }

    // MARK: Engine side (each call locks once)

    /// Whether the track was read to its end, or failed; nil while reading.
    struct Snapshot: Sendable {
        var reachedEnd = false
        var failure: MediaError?
        /// Nothing more comes until the playhead moves or a seek (``SubtitleRenditionPipeline``).
        var isIdle = false
        /// Nothing more will come now: read through, failed, or idle.
        var isSettled: Bool { reachedEnd || failure != nil || isIdle }
    }

    func snapshot() -> Snapshot {
        condition.lock()
        defer { condition.unlock() }
        return Snapshot(reachedEnd: reachedEnd, failure: failure)
    }

    /// The cues shown at `time`, in order of their start.
    func shown(at time: MediaTime) -> [TextCue] {
        condition.lock()
        defer { condition.unlock() }
        return cues.shown(at: time)
    }

    /// The first time after `time` at which what is shown changes (a cue starts or ends), among the cues read.
    func nextChange(after time: MediaTime) -> MediaTime? {
        condition.lock()
        defer { condition.unlock() }
        return cues.nextChange(after: time)
    }

    // MARK: Thread

    private func run() {
        let reader: TextTrackReader
        do throws(MediaError) {
            reader = try open()
        } catch {
            finish(failure: error)
            return
        }
        while true {
            condition.lock()
            let stop = stopped
            condition.unlock()
            if stop { return }
            let next: [TextCue]?
            do throws(MediaError) {
                next = try reader.nextCues()
            } catch {
                finish(failure: error)
                return
            }
            guard let next else { break }
            condition.lock()
            for cue in next { insert(cue) }
            condition.unlock()
            onChange()
        }
        // A track whose every packet failed to decode is broken, not empty.
        if reader.cuesRead == 0, reader.damagedPackets > 0, let error = reader.lastDecodeError {
            finish(failure: error)
        } else {
            finish(failure: nil)
        }
    }

    /// Locked: adds `cue` in order of start; a cue whose end the track did not give ends where the next begins.
    private func insert(_ cue: TextCue) {
        let index = cues.lastIndex { $0.start <= cue.start }.map { $0 + 1 } ?? 0
        cues.insert(cue, at: index)
        if index > 0, !cues[index - 1].end.isNumeric, cues[index - 1].start < cue.start {
            cues[index - 1].end = cue.start
        }
    }

    private func finish(failure: MediaError?) {
        condition.lock()
        if let failure { self.failure = failure } else { reachedEnd = true }
        condition.unlock()
        onChange()
    }
}

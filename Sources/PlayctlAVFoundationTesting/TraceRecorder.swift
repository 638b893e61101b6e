import Locking
import PictureInPicture
import Playback
import PlayctlAVFoundation

/// Records everything observable about code written against AVFoundation as one trace of lines with the clock time
/// and the media time: each player's events and metric events (status, rate, time control, items, seeks, stalls,
/// ends, first frames, summaries), the notifications posted about its items, Picture in Picture controllers' events,
/// and notes of the test's own.
///
/// ```text
///    0.000 player      a.mp4 @0.000   itemStatus readyToPlay duration 6.000
///    1.000 pip         -              didStart
/// ```
///
/// Each source keeps its lines in the order they came; the trace orders lines by clock time, then by source (in the
/// order they were added), then by that order, so it does not depend on which thread delivered first. Under a
/// manual clock it is the same on every run. Session ids, real-time figures and hang reports are left out. The
/// recorder keeps what it records alive until it is released itself, so that a trace does not end with whatever a
/// release reported in time.
public final class TraceRecorder: Sendable {
    private struct Line {
        let time: Double
        let source: Int
        let index: Int
        let text: String
    }

    private struct State {
        var lines: [Line] = []
        var counts: [Int: Int] = [:]
        var sources: [String] = []
        var players: [ObjectIdentifier: Int] = [:]
        var observers: [any NSObjectProtocol] = []
        /// What is recorded, kept alive with the recorder: releasing a player or controller reports (a summary, a
        /// stop) at a moment of its own, which would make the trace's end depend on timing.
        var kept: [AnyObject] = []
        var stateIDs: [UInt64: Int] = [:]
    }

    private let state = Locked(State())
    private let clock: ManualClock?

    /// A recorder whose notes are stamped with `clock`'s time (a driver's clock).
    public init(clock: ManualClock? = nil) {
        self.clock = clock
    }

    /// A recorder for `driver`'s clock.
    public convenience init(driver: ClockDriver) { self.init(clock: driver.clock) }

    deinit {
        for observer in state.withLock({ $0.observers }) { NotificationCenter.default.removeObserver(observer) }
    }

    /// Records `player`'s events and metrics from now on, and the AVPlayerItem notifications about its items, under
    /// `name`.
    public func record(_ player: AVPlayer, as name: String) {
        let source = addSource(name)
        state.withLock { state in
            state.players[ObjectIdentifier(player)] = source
            state.kept.append(player)
        }
        player.playctlPlayer.observeEventsAndMetrics { [weak self] record in
            guard let self, let (time, text) = Self.describe(record) else { return }
            self.append(text, at: time, source: source)
        }
    }

    /// Records the AVFoundation notifications (`.AVPlayerItemDidPlayToEndTime`, `.AVPlayerItemFailedToPlayToEndTime`,
    /// `.AVPlayerItemPlaybackStalled`, `.AVPlayerItemTimeJumped`) about items of recorded players, each in its
    /// player's lines.
    public func recordNotifications() {
        let names: [Notification.Name] = [
            .AVPlayerItemDidPlayToEndTime, .AVPlayerItemFailedToPlayToEndTime, .AVPlayerItemPlaybackStalled,
            .AVPlayerItemTimeJumped,
        ]
        for name in names {
            let observer = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) {
                [weak self] notification in
                self?.noted(notification)
            }
            state.withLock { $0.observers.append(observer) }
        }
    }

    /// Records `controller`'s Picture in Picture events from now on under `name`, as they are produced (by an API
    /// call, the window, a clock advance), stamped with its system's clock then. Playback-state objects are numbered
    /// in the order this recorder first sees them (`#1`, ...), not by their process-wide ids.
    public func record(_ controller: AVPictureInPictureController, as name: String) {
        let source = addSource(name)
        state.withLock { $0.kept.append(controller) }
        let system = controller.playctlController.system
        controller.playctlController.observeEventsAsProduced { [weak self] event in
            guard let self else { return }
            let now = (system as? SimulatedPictureInPictureSystem)?.now ?? 0
            self.append(self.describe(event), at: now, source: source)
        }
    }

    private func describe(_ event: PictureInPictureControllerEvent) -> String {
        guard case .playbackState(let id, let duration, let elapsed, let status) = event else {
            return event.description
        }
        let ordinal = state.withLock { state in
            if let known = state.stateIDs[id] { return known }
            state.stateIDs[id] = state.stateIDs.count + 1
            return state.stateIDs.count
        }
        return String(
            format: "playbackState(#%d, duration %.3f, elapsed %.3f, %@)", ordinal, duration.seconds, elapsed.seconds,
            status.description)
    }

    /// Adds a line of the test's own (what the app decided), at the clock's time, under `source`.
    public func note(_ text: String, source name: String = "app") {
        let source = addSource(name)
        append(text, at: clock?.now.seconds ?? 0, source: source)
    }

    /// The trace: one line per record, ordered as described above.
    public var trace: String {
        let (lines, sources) = state.withLock { ($0.lines, $0.sources) }
        let width = max(sources.map(\.count).max() ?? 0, 6)
        return lines.sorted { ($0.time, $0.source, $0.index) < ($1.time, $1.source, $1.index) }
            .map { line in
                let name = sources[line.source].padding(toLength: width, withPad: " ", startingAt: 0)
                return String(format: "%9.3f ", line.time) + name + " " + line.text
            }
            .joined(separator: "\n") + "\n"
    }

    // MARK: Recording

    private func addSource(_ name: String) -> Int {
        state.withLock { state in
            if let index = state.sources.firstIndex(of: name) { return index }
            state.sources.append(name)
            return state.sources.count - 1
        }
    }

    private func append(_ text: String, at time: Double, source: Int) {
        state.withLock { state in
            let index = state.counts[source, default: 0]
            state.counts[source] = index + 1
            state.lines.append(Line(time: (time * 1000).rounded() / 1000, source: source, index: index, text: text))
        }
    }

    private func noted(_ notification: Notification) {
        guard let item = notification.object as? AVPlayerItem,
            let time = notification.userInfo?[PlayctlNotificationKeys.hostTime] as? Double
        else { return }
        let owner = notification.userInfo?[PlayctlNotificationKeys.player] as? AVPlayer
        guard let owner, let source = state.withLock({ $0.players[ObjectIdentifier(owner)] }) else { return }
        let media = (notification.userInfo?[PlayctlNotificationKeys.itemTime] as? CMTime)?.seconds ?? .nan
        let name = item.playctlItem.name
        append(
            "\(Self.column(name, media)) notification \(notification.name.rawValue)", at: time, source: source)
    }

    /// The time and text of a player's record; nil for what a trace leaves out.
    static func describe(_ record: PlaybackRecord) -> (Double, String)? {
        switch record {
        case .event(let event):
            switch event.kind {
            case .periodicTime, .decodeError, .seekRequested, .seekCompleted, .firstFrame: return nil
            default: break
            }
            return (event.hostTime, column(event.item, event.itemTime.seconds) + " " + describe(event.kind))
        case .metric(let metric):
            if metric is HangEvent { return nil }
            return (metric.hostTime, column(metric.item, metric.mediaTime.seconds) + " " + metric.description)
        }
    }

    private static func column(_ item: String?, _ seconds: Double) -> String {
        let text = (item ?? "-") + (seconds.isFinite ? String(format: " @%.3f", seconds) : "")
        return text.padding(toLength: max(text.count, 16), withPad: " ", startingAt: 0)
    }

    private static func describe(_ kind: PlayerEvent.Kind) -> String {
        switch kind {
        case .itemStatus(let status, let duration, let error):
            return "itemStatus \(status)" + (duration.map { String(format: " duration %.3f", $0.seconds) } ?? "")
                + (error.map { " error \($0)" } ?? "")
        case .timeControlStatus(let status, let reason):
            return "timeControlStatus \(status)" + (reason.map { " (\($0))" } ?? "")
        case .rate(let rate, let previous): return "rate \(rate) (was \(previous))"
        case .currentItem: return "currentItem"
        case .didPlayToEnd: return "didPlayToEnd"
        case .failedToPlayToEnd(let error): return "failedToPlayToEnd \(error)"
        case .stalled: return "stalled"
        case .timeJumped: return "timeJumped"
        case .likelyToKeepUp(let value): return "likelyToKeepUp \(value)"
        case .bufferEmpty(let value): return "bufferEmpty \(value)"
        case .bufferFull(let value): return "bufferFull \(value)"
        case .loadedTimeRanges(let ranges): return "loadedTimeRanges \(ranges)"
        case .boundaryTime(let time): return String(format: "boundaryTime %.3f", time.seconds)
        case .presentationSize(let width, let height): return "presentationSize \(width)x\(height)"
        case .variantSwitch(let change):
            return "variantSwitch \(change.from?.id ?? "-") -> \(change.to.id) at \(change.seconds) (\(change.reason))"
        case .periodicTime, .decodeError, .seekRequested, .seekCompleted, .firstFrame, .cue, .mediaSelection,
            .mediaOptionFailed, .audioOutput, .framesDropped, .timedMetadata:
            return "\(kind)"
        }
    }
}

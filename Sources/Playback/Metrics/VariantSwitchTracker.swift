import Streaming

/// One session's variant switches, for the metrics deriver: each decision gives a ``VariantSwitchStartEvent`` and
/// waits for the reader to get to it, which gives its ``VariantSwitchEvent``.
struct VariantSwitchTracker {
    /// The media time ranges loaded, as the session's last `loadedTimeRanges` event has them.
    var loadedTimeRanges: [TimeRange] = []
    /// Switches started and not ended yet, in the order they were decided: at most ``pendingLimit``.
    private(set) var pending: [VariantSwitch] = []
    /// How many switches may wait for the reader. A reader that stops reading while the session keeps deciding (a
    /// stalled demuxer, a session whose reads are not observed) would grow the list forever: past the limit the
    /// oldest ends as failed (its ``VariantSwitchEvent`` with `didSucceed: false`). A forward buffer of 30 s holds 15
    /// segments of 2 s, each decided at most a few times.
    static let pendingLimit = 64
    /// Switches already started from the item's list when the session began: their events, if they come too, are
    /// not reported twice.
    private var replayed: [VariantSwitch] = []

    /// A switch was decided: its start event (none when it was already reported from the item's list).
    mutating func decided(_ change: VariantSwitch, context: MetricContext) -> [any MetricEvent] {
        if let index = replayed.firstIndex(of: change) {
            replayed.remove(at: index)
            return []
        }
        pending.append(change)
        return [VariantSwitchStartEvent(context: context, change: change, loadedTimeRanges: loadedTimeRanges)]
            + trim(context: context)
    }

    /// Ends the oldest pending switches as failed while more than ``pendingLimit`` wait.
    private mutating func trim(context: MetricContext) -> [any MetricEvent] {
        let excess = pending.count - Self.pendingLimit
        guard excess > 0 else { return [] }
        defer { pending.removeFirst(excess) }
        return pending[..<excess].map {
            VariantSwitchEvent(context: context, change: $0, loadedTimeRanges: loadedTimeRanges, didSucceed: false)
        }
    }

    /// The switches the item made before its session began (loaded ahead, or current before): started now, from the
    /// one in effect where the reader is (`read`) on; the older ones were over before the session.
    mutating func replay(_ changes: [VariantSwitch], read: VariantRead?, context: MetricContext) -> [any MetricEvent] {
        replayed = changes
        var first = changes.startIndex
        if let read, let effective = changes.lastIndex(where: { $0.segmentIndex <= read.segmentIndex }) {
            first = effective
        }
        let started: [any MetricEvent] = changes[first...].map {
            pending.append($0)
            return VariantSwitchStartEvent(context: context, change: $0, loadedTimeRanges: loadedTimeRanges)
        }
        return started + trim(context: context)
    }

    /// The reader entered segment `read.segmentIndex`, the first it read of `read.variant`: the switches decided
    /// for that segment or an earlier one end, those to that variant succeeded, the others failed (a later decision
    /// or a seek replaced them). Switches decided for later segments wait.
    mutating func read(_ read: VariantRead, context: MetricContext) -> [any MetricEvent] {
        var out: [any MetricEvent] = []
        pending.removeAll { change in
            guard change.segmentIndex <= read.segmentIndex else { return false }
            out.append(
                VariantSwitchEvent(
                    context: context, change: change, loadedTimeRanges: loadedTimeRanges,
                    didSucceed: change.to.id == read.variant.id))
            return true
        }
        return out
    }

    /// The session ends: the switches still pending fail.
    mutating func end(context: MetricContext) -> [any MetricEvent] {
        defer { pending = [] }
        return pending.map {
            VariantSwitchEvent(context: context, change: $0, loadedTimeRanges: loadedTimeRanges, didSucceed: false)
        }
    }
}

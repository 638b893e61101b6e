import Foundation
import Streaming

/// Turns one player's event stream into metric events: a value that remembers sessions, pending seeks and swaps,
/// and the time spent in each state. Each input returns the metric events to deliver (with the item they concern);
/// it does no delivery, locking or timing of its own, so it is tested with plain event sequences.
struct MetricsDeriver {
    typealias Output = [(event: any MetricEvent, item: PlayerItem?)]

    struct Session {
        let id = UUID().uuidString
        let item: PlayerItem?
        let itemName: String?
        let start: Double
        /// Real time when the session began.
        var startWall = 0.0
        let framesAtStart: (rendered: Int, dropped: Int)
        var mediaTime: MediaTime = .zero
        var firstFrameShown = false
        var hasPlayed = false
        var inStall = false
        var stallCount = 0
        var seekCount = 0
        var startupTime = 0.0
        var startupElapsed = 0.0
        var stallRecoveryTime = 0.0
        var playbackDuration = 0.0
        var likely: Bool?
        var notLikelySince: Double
        var initialLikelyReported = false
        /// Something happened since the last summary (or the session is new): a summary is owed at its end.
        var summaryDue: Bool
        var variants = VariantSwitchTracker()
    }

    private struct PendingSeek {
        let inBuffer: Bool
        let requestedWall: Double
    }

    private struct PendingSwap {
        let from: String?
        weak var to: PlayerItem?
        let toName: String?
        let mode: ContentSwapMode
        let requestedAt: Double
        let requestedWall: Double
    }

    /// Dates are `epoch + hostTime`.
    var epoch: Date
    private(set) var session: Session
    private(set) var lastHostTime: Double = 0
    private var status: TimeControlStatus = .paused
    private var statusSince: Double = 0
    /// Real time of the input being handled, and of the last status change.
    private var wallNow: Double = 0
    private var statusSinceWall: Double = 0
    private var pendingSeeks: [UInt64: PendingSeek] = [:]
    private var pendingSwaps: [PendingSwap] = []

    init(epoch: Date) {
        self.epoch = epoch
        session = Session(
            item: nil, itemName: nil, start: 0, framesAtStart: (0, 0), notLikelySince: 0,
            summaryDue: false)
    }

    func context(at hostTime: Double, mediaTime: MediaTime? = nil, item: String? = nil) -> MetricContext {
        MetricContext(
            date: epoch.addingTimeInterval(hostTime), mediaTime: mediaTime ?? session.mediaTime,
            sessionID: session.id, hostTime: hostTime, item: item ?? session.itemName)
    }

    // MARK: Inputs

    /// The metric events `event` gives rise to (called with every player event, in order).
    mutating func consume(_ event: PlayerEvent, facts: some MetricsFacts) -> Output {
        let t = event.hostTime
        wallNow = event.wallTime
        lastHostTime = max(lastHostTime, t)
        if case .currentItem = event.kind {
            accrue(until: t)
            var out = endOfSession(at: t, facts: facts)
            let item = facts.currentPlayerItem
            session = Session(
                item: item, itemName: event.item, start: t, framesAtStart: facts.frameCounts,
                mediaTime: event.itemTime, notLikelySince: t, summaryDue: item != nil)
            session.startWall = wallNow
            out += swapsAlreadyShown(at: t)
            // An item loaded ahead (or current before) made choices before this session: they start now.
            refreshLoaded(facts)
            let read = item?.variantRead
            out += session.variants.replay(item?.variantSwitches ?? [], read: read, context: context(at: t)).map {
                ($0, item)
            }
            if let read {
                out += variantRead(read, of: item, at: t, mediaTime: event.itemTime, facts: facts)
            }
            return out
        }
        session.mediaTime = event.itemTime
        let context = context(at: t, mediaTime: event.itemTime, item: event.item)
        var out: Output = []
        func add(_ metric: any MetricEvent) { out.append((metric, session.item)) }
        switch event.kind {
        case .timeControlStatus(let newStatus, _):
            accrue(until: t)
            status = newStatus
            if newStatus == .playing {
                session.hasPlayed = true
                session.inStall = false
                session.summaryDue = true
            }
        case .rate(let rate, let previous):
            add(RateChangeEvent(context: context, rate: rate, previousRate: previous, reason: facts.rateChangeReason))
        case .stalled:
            accrue(until: t)
            session.stallCount += 1
            session.inStall = true
            session.summaryDue = true
            add(StallEvent(context: context))
        case .seekRequested(let id, let target, let from, let exact, let origin):
            session.seekCount += 1
            session.summaryDue = true
            pendingSeeks[id] = PendingSeek(inBuffer: facts.isDecoded(target), requestedWall: wallNow)
            add(
                SeekEvent(
                    context: context, id: SeekID(rawValue: id), requestedTime: target, fromTime: from,
                    tolerance: exact ? .exact : .keyframe, origin: origin))
        case .seekCompleted(let id, let finished, let landed, let statistics, let latency):
            let pending = pendingSeeks.removeValue(forKey: id)
            add(
                SeekDidCompleteEvent(
                    context: context, id: SeekID(rawValue: id), finished: finished,
                    landedTime: finished ? landed : nil, didSeekInBuffer: pending?.inBuffer ?? false,
                    latency: latency, framesDecoded: statistics.framesDecoded,
                    framesSkipped: statistics.framesSkipped,
                    framesDiscarded: statistics.framesDiscarded,
                    elapsedTime: pending.map { max(wallNow - $0.requestedWall, 0) } ?? latency))
        case .firstFrame(let latency):
            session.firstFrameShown = true
            session.summaryDue = true
            add(FirstFrameEvent(context: context, latency: latency, elapsedTime: max(wallNow - session.startWall, 0)))
            out += swapsAlreadyShown(at: t)
        case .likelyToKeepUp(let likely):
            if likely, session.likely != true {
                if !session.initialLikelyReported {
                    session.initialLikelyReported = true
                    add(InitialLikelyToKeepUpEvent(context: context, timeTaken: t - session.start))
                } else {
                    add(LikelyToKeepUpEvent(context: context, timeTaken: t - session.notLikelySince))
                }
            } else if !likely, session.likely != false {
                session.notLikelySince = t
            }
            session.likely = likely
        case .variantSwitch(let change) where concernsSession(event):
            refreshLoaded(facts)
            for metric in session.variants.decided(change, context: context) { add(metric) }
        case .loadedTimeRanges(let ranges) where concernsSession(event):
            session.variants.loadedTimeRanges = ranges
        case .didPlayToEnd, .failedToPlayToEnd:
            out += summaryIfDue(at: t, facts: facts)
        case .itemStatus(.failed, _, _) where event.item != nil && event.item == session.itemName:
            out += summaryIfDue(at: t, facts: facts)
        default:
            break
        }
        return out
    }

    /// A content swap to `to` (see `MetricsCollector.recordContentSwap(from:to:mode:)`): reported at once if
    /// `to` is this session's item and its first frame is already shown, else at its first frame.
    mutating func recordSwap(from: String?, to: PlayerItem?, mode: ContentSwapMode, at t: Double) -> Output {
        lastHostTime = max(lastHostTime, t)
        wallNow = HostTime.now()
        pendingSwaps.append(
            PendingSwap(from: from, to: to, toName: to?.name, mode: mode, requestedAt: t, requestedWall: wallNow))
        return swapsAlreadyShown(at: t)
    }

    /// The primary reader of `item`'s stream entered a segment of another variant than the one it read before
    /// (`StreamSession.observeVariantsRead(_:)`): the switches it completes.
    mutating func variantRead(
        _ read: VariantRead, of item: PlayerItem?, at t: Double, mediaTime: MediaTime, facts: some MetricsFacts
    ) -> Output {
        lastHostTime = max(lastHostTime, t)
        guard item === session.item else { return [] }
        refreshLoaded(facts)
        return session.variants.read(read, context: context(at: t, mediaTime: mediaTime)).map { ($0, session.item) }
    }

    /// The variant switches' loaded ranges: an adaptive item's segments loaded, else its last `loadedTimeRanges`
    /// event's.
    private mutating func refreshLoaded(_ facts: some MetricsFacts) {
        if let loaded = facts.segmentsLoaded(of: session.item) { session.variants.loadedTimeRanges = loaded }
    }

    /// Whether `event` is about this session's item (not one loaded ahead).
    private func concernsSession(_ event: PlayerEvent) -> Bool {
        if let item = session.item { return event.itemSerialNumber == item.serial }
        return event.item != nil && event.item == session.itemName
    }

    /// A callback blocked the callback thread (see ``CallbackWatchdog``).
    mutating func hang(callback: String, duration: Double, threshold: Double, ended: Bool, at t: Double) -> Output {
        lastHostTime = max(lastHostTime, t)
        return [
            (
                HangEvent(
                    context: context(at: t), callback: callback, duration: duration, threshold: threshold,
                    ended: ended), session.item
            )
        ]
    }

    /// The player is going away: the summary of the session, if one is owed.
    mutating func finish(at t: Double, facts: some MetricsFacts) -> Output {
        lastHostTime = max(lastHostTime, t)
        wallNow = HostTime.now()
        accrue(until: t)
        return endOfSession(at: t, facts: facts)
    }

    /// The summary of the session so far, without sending it or changing what is owed.
    func currentSummary(at t: Double, facts: some MetricsFacts) -> PlaybackSummaryEvent {
        var copy = self
        copy.wallNow = HostTime.now()
        copy.accrue(until: t)
        return copy.makeSummary(at: t, facts: facts)
    }

    // MARK: Bookkeeping

    /// Adds the time since the last status change to the bucket of the status the player was in.
    private mutating func accrue(until t: Double) {
        let span = max(t - max(statusSince, session.start), 0)
        let wallSpan = max(wallNow - max(statusSinceWall, session.startWall), 0)
        switch status {
        case .playing:
            session.playbackDuration += span
        case .waitingToPlayAtSpecifiedRate:
            if !session.hasPlayed {
                session.startupTime += span
                session.startupElapsed += wallSpan
            } else if session.inStall {
                session.stallRecoveryTime += span
            }
        case .paused:
            break
        }
        statusSince = t
        statusSinceWall = wallNow
    }

    private mutating func endOfSession(at t: Double, facts: some MetricsFacts) -> Output {
        guard session.item != nil || session.itemName != nil else { return [] }
        let item = session.item
        refreshLoaded(facts)
        return session.variants.end(context: context(at: t)).map { ($0, item) } + summaryIfDue(at: t, facts: facts)
    }

    private mutating func summaryIfDue(at t: Double, facts: some MetricsFacts) -> Output {
        guard session.summaryDue else { return [] }
        accrue(until: t)
        session.summaryDue = false
        return [(makeSummary(at: t, facts: facts), session.item)]
    }

    private func makeSummary(at t: Double, facts: some MetricsFacts) -> PlaybackSummaryEvent {
        let frames = facts.frameCounts
        let network = facts.network(of: session.item)
        return PlaybackSummaryEvent(
            context: context(at: t), stallCount: session.stallCount, seekCount: session.seekCount,
            startupTime: session.startupTime, stallRecoveryTime: session.stallRecoveryTime,
            framesRendered: max(frames.rendered - session.framesAtStart.rendered, 0),
            framesDropped: max(frames.dropped - session.framesAtStart.dropped, 0),
            playbackDuration: session.playbackDuration, bytesTransferred: network?.bytesTransferred,
            downloadRate: network?.bytesPerSecond, timeToFirstByte: network?.timeToFirstByte,
            startupElapsedTime: session.startupElapsed, avsync: facts.avsync)
    }

    /// Content swaps whose new item is this session's and already shows a frame.
    private mutating func swapsAlreadyShown(at t: Double) -> Output {
        pendingSwaps.removeAll { $0.to == nil && $0.toName != nil }
        guard session.firstFrameShown || session.item == nil else { return [] }
        let context = context(at: t)
        let item = session.item
        var out: Output = []
        pendingSwaps.removeAll { swap in
            guard swap.to === item else { return false }
            out.append(
                (
                    ContentSwapEvent(
                        context: context, from: swap.from, to: swap.toName, mode: swap.mode,
                        latency: max(t - swap.requestedAt, 0), elapsedTime: max(wallNow - swap.requestedWall, 0)),
                    item
                ))
            return true
        }
        return out
    }
}

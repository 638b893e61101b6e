import EventJSON
import Feed
import Foundation
import Loading
import Playback
import PlayctlOutput

/// One run of `playctl feed`: a `FeedController` on the host clock, the scroll played against it in real time, and
/// what is printed as it happens (JSON Lines of every event, or a line per swipe), then the summary.
struct FeedRun: Sendable {
    let manifest: FeedManifest
    /// The steps, played at their times from the start.
    let scroll: FeedScroll
    let configuration: FeedConfiguration
    /// The loader and byte cache of the http(s) entries.
    let loading: RemoteLoading
    /// JSON Lines of every event, or text.
    let json: Bool
    /// `--timeline`: keeps every event's object for the picture drawn at the end.
    var timeline: TimelineRecorder?
    /// The swipes done so far, on standard error in a terminal (not with --json).
    var progress = ProgressLine(shown: false)
    /// The swipes and what happened on each.
    let log = FeedSwipeLog()
    let writer = JSONLinesWriter.standardOutput()

    /// The readable lines.
    var text: FeedText { FeedText(entries: manifest.entries, flingSpeed: configuration.policy.flingSpeed) }

    /// Plays the scroll: each step at its time (the task sleeps between them), each swipe's line once the next
    /// begins, the feed invalidated after the last dwell, then the summary (taken before the feed is invalidated,
    /// so the last item's time on screen counts).
    func run() async -> FeedSummary {
        let text = self.text
        let pages = manifest.next.map { FeedPages(next: $0, loading: loading) }
        let feed = FeedController(
            entries: manifest.entries, pageSource: pages, configuration: configuration, loading: loading, clock: .host)
        let first = FeedEntries(manifest.entries)
        feed.observeEvents { [log, writer, json, timeline, weak feed] event in
            log.record(event)
            if json || timeline != nil {
                let object = FeedEventJSON.object(event, entries: feed?.entries ?? first)
                timeline?.record(object)
                if json { try? writer.write(object) }
            }
        }
        if !json {
            write(text.header(manifest: manifest.path, scroll: scroll, configuration: configuration))
            write(text.columns)
        }
        let start = ContinuousClock.now
        var swipes = 0
        // The steps made: an endless feed's scroll ends where its pages did.
        var made = 0
        // A grid's cells on screen: each swipe's line names the first that came into view.
        var shown: Range<Int> = 0..<0
        for (position, step) in scroll.steps.enumerated() {
            try? await Task.sleep(until: start + .seconds(step.at), clock: .continuous)
            // An endless feed's next page may still be on its way: the user waits at the end for it; without more
            // entries the scroll ends there.
            guard await reachable(step.index, feed) else { break }
            made = position + 1
            guard scroll.isSwipe(position) else {
                feed.scroll(to: step.index, speed: step.speed)
                if step.tap { feed.play(index: step.index) }
                continue
            }
            let layout = configuration.layout
            let first = layout.rowStart(of: step.index)
            let cells = first..<max(first + 1, min(first + layout.visibleCount, feed.entries.endIndex))
            let entering = layout.isGrid ? cells.first { !shown.contains($0) } ?? step.index : step.index
            shown = cells
            log.begin(
                FeedSwipe(
                    number: swipes, index: entering, time: feed.now, speed: step.speed,
                    firstSequenceNumber: PlayerEvent.makeSequenceNumber()))
            feed.scroll(to: step.index, speed: step.speed)
            if step.tap { feed.play(index: step.index) }
            if swipes > 0 { await finish(swipe: swipes - 1, feed, text) }
            swipes += 1
            progress.update("feed: swipe", done: swipes, total: scroll.swipes)
        }
        let taken = scroll.prefix(made)
        try? await Task.sleep(until: start + .seconds(taken.end), clock: .continuous)
        if swipes > 0 { await finish(swipe: swipes - 1, feed, text) }
        progress.clear()
        let summary = feed.summary
        let time = feed.now
        feed.invalidate()
        await feed.eventsDelivered()
        if json {
            try? writer.write(
                FeedEventJSON.summary(
                    summary, time: time, swipes: taken.swipes, flings: taken.flings(above: text.flingSpeed)))
        } else {
            for line in text.summary(summary, scroll: taken, duration: time) { write(line) }
        }
        return summary
    }

    /// Prints swipe `number`'s line once every event made before the call has been counted.
    private func finish(swipe number: Int, _ feed: FeedController, _ text: FeedText) async {
        await feed.eventsDelivered()
        guard !json, let swipe = log.swipe(number) else { return }
        var text = text
        text.entries = feed.entries
        write(text.line(swipe))
    }

    /// Whether item `index` is in the feed, once the page asked for (if any) came or failed.
    private func reachable(_ index: Int, _ feed: FeedController) async -> Bool {
        while index >= feed.entries.endIndex {
            guard feed.isWaitingForPage else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// One line on standard output, at once (a closed pipe is ignored, as `play` does).
    private func write(_ line: String) {
        progress.clear()
        _ = FileDescriptorIO.writeAll(Array((line + "\n").utf8), to: STDOUT_FILENO)
    }
}

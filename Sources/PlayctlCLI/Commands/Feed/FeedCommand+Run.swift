import Feed
import Playback
import PlayctlOutput
import Streaming

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `playctl feed MANIFEST ...`: reads the manifest and the scroll, runs the feed in real time (`FeedRun`, on a task
/// while this thread waits, as `play` does), and prints what happened. Exits 1 for a manifest or script that cannot
/// be used, or, after the summary, when an item failed.
extension FeedCommand: PlayctlCommand {
    func run(_ output: StandardOutput) throws(CommandFailure) {
        let manifest: FeedManifest
        let scroll: FeedScroll
        let loading = try MediaLocation.loading(cache: cache, headers: request.headers)
        do throws(FeedInputError) {
            manifest = try FeedManifest.load(manifestPath, loading: loading)
            // An endless feed's scroll goes on past its first page: as far as its pages go.
            scroll = try makeScroll(entries: manifest.next == nil ? manifest.entries.count : Int.max)
        } catch {
            throw CommandFailure(error)
        }
        for path in manifest.skipped {
            let note = "\(PlayctlCommands.spec.name): note: \(path) left out: audio only (a feed shows pictures)\n"
            _ = FileDescriptorIO.writeAll(Array(note.utf8), to: STDERR_FILENO)
        }
        var feedRun = FeedRun(
            manifest: manifest, scroll: scroll, configuration: configuration,
            loading: loading, json: printsJSON)
        feedRun.timeline = timelinePath.map { _ in TimelineRecorder() }
        feedRun.progress = .onStandardError(json: printsJSON)
        try output.flush()
        let run = feedRun
        let summary = AsyncWork.wait { await run.run() }
        if let timelinePath, let timeline = run.timeline {
            try timeline.write(to: timelinePath, title: "playctl feed " + ReportCommand.fileName(manifestPath))
        }
        if summary.failures > 0, let first = feedRun.log.failures.first {
            let name = FeedText.item(first.index, FeedEntries(manifest.entries))
            throw CommandFailure(
                "\(FeedText.count(summary.failures, "item")) of the feed failed; the first, \(name): \(first.error)")
        }
    }

    /// The scroll the options ask for, over a feed of `entries` items.
    func makeScroll(entries: Int) throws(FeedInputError) -> FeedScroll {
        switch scroll {
        case .generated(let swipes, let dwell, let seed):
            // A grid scrolls by rows: the scroll is drawn over them.
            let columns = configuration.layout.columns
            let rows = entries == Int.max ? Int.max : (entries + columns - 1) / columns
            return FeedScroll.generated(entries: rows, swipes: swipes, dwell: dwell, seed: seed).rows(of: columns)
        case .script(let path):
            return try FeedScroll.script(path, entries: entries)
        }
    }

    /// The feed's configuration from the options (the rest as `FeedConfiguration` has it).
    var configuration: FeedConfiguration {
        var configuration = FeedConfiguration()
        configuration.poolSize = poolSize
        if let grid { configuration.layout = .grid(columns: grid.columns, rows: grid.rows) }
        configuration.audio = audio
        configuration.posterSize = posterSize
        switch network {
        case .unconstrained: configuration.profile = .unconstrained
        case .cellular: configuration.profile = .cellular
        case .constrained: configuration.profile = .constrained
        }
        if let estimate { configuration.bandwidthEstimate = .known(Double(estimate)) }
        return configuration
    }
}

import Foundation
import MediaIO
import Streaming

/// Plays an HLS subtitle rendition (WebVTT segments) on a thread of its own: loads its media playlist, then fetches
/// the segments near the playhead (the one it is in, the one before, and those starting less than ``lookahead``
/// after it), through the item's loader, and keeps their cues on the media's timeline (`X-TIMESTAMP-MAP` applied)
/// while the playhead has not passed them.
///
/// Bounded: cues held cost their text's bytes plus ``cueOverhead``; no segment is fetched while they come to
/// ``byteLimit`` or more (so they stay below it plus one segment's cues). A seek empties the window, and the segments
/// around the target are read again (from the loader's byte cache when they were fetched before). A cue repeated in
/// the segments it spans is kept once. A segment that fails (missing, not WebVTT) is skipped and its error handed to
/// the engine (``takeSkippedErrors()``); a playlist that fails is the option's failure. All state is guarded by
/// `condition`.
final class SubtitleRenditionPipeline: LegiblePipeline, @unchecked Sendable {
    static let defaultByteLimit = 256 << 10
    /// What a cue costs beyond its text (its times, style and runs).
    static let cueOverhead = 128
    static let defaultLookahead = MediaTime(seconds: 10)

    let option: MediaSelectionOption
    let byteLimit: Int
    let lookahead: MediaTime
    private let playlist: @Sendable () throws(MediaError) -> MediaPlaylist
    private let fetch: @Sendable (Segment) throws(MediaError) -> [UInt8]
    /// Where the media's time zero lies on the presentation's timeline (the primary demuxer's start).
    private let presentationStart: MediaTime
    private let onChange: @Sendable () -> Void
    private let condition = NSCondition()
    /// Nil until the playlist is loaded.
    private var segments: [Segment]?
    /// Held cues, in order of their start, none twice.
    private var cues: [TextCue] = []
    private var bytes = 0
    /// The most bytes held at once.
    private var peak = 0
    /// Segments whose cues are held, and those that failed, in this generation.
    private var held: Set<Int> = []
    private var failed: Set<Int> = []
    /// Every segment fetch begun, in order.
    private var begun: [Int] = []
    private var reading: Int?
    private var playhead = MediaTime.zero
    /// Bumped by a seek: a fetch begun before it is not kept.
    private var generation = 0
    private var failure: MediaError?
    private var skipped: [MediaError] = []
    private var stopped = false

    /// A pipeline for `option` whose playlist `playlist` loads and whose segments `fetch` reads (both on the
    /// pipeline's thread), with cue times mapped against `presentationStart`.
    init(
        option: MediaSelectionOption, presentationStart: MediaTime,
        byteLimit: Int = SubtitleRenditionPipeline.defaultByteLimit,
        lookahead: MediaTime = SubtitleRenditionPipeline.defaultLookahead,
        playlist: @escaping @Sendable () throws(MediaError) -> MediaPlaylist,
        fetch: @escaping @Sendable (Segment) throws(MediaError) -> [UInt8],
        onChange: @escaping @Sendable () -> Void
    ) {
        self.option = option
        self.presentationStart = presentationStart
        self.byteLimit = byteLimit
        self.lookahead = lookahead
        self.playlist = playlist
        self.fetch = fetch
        self.onChange = onChange
    }

    func start(name: String) {
        startDedicatedThread(name: "playctl.subtitles.\(name)") { [self] in run() }
    }

    func stop() {
        locked { $0.stopped = true }
    }

    // MARK: Engine side (each call locks once)

    func snapshot() -> TextPipeline.Snapshot {
        reading { p in
            TextPipeline.Snapshot(
                failure: p.failure, isIdle: p.segments != nil && p.reading == nil && p.nextSegment() == nil)
        }
    }

    func shown(at time: MediaTime) -> [TextCue] { reading { $0.cues.shown(at: time) } }

    func nextChange(after time: MediaTime) -> MediaTime? { reading { $0.cues.nextChange(after: time) } }

    /// Bytes held now, and the most held at once.
    var heldBytes: Int { reading { $0.bytes } }
    var peakBytes: Int { reading { $0.peak } }
    /// The segments whose fetch began, in order (again after a seek).
    var fetches: [Int] { reading { $0.begun } }

    /// How far back the playhead may move without a seek before the window is read again (a keyframe landing
    /// before a seek's target); less is the engine's slack around a time, not a move.
    static let backwardTolerance = MediaTime(seconds: 1)

    func playheadMoved(to time: MediaTime) {
        locked { p in
            guard time.isNumeric, time != p.playhead else { return }
            // Back without a seek (a keyframe landing before the target, say): as a seek there.
            if time < p.playhead {
                if time < p.playhead - Self.backwardTolerance { p.reset(at: time) }
                return
            }
            p.playhead = time
            p.forgetPassed()
        }
    }

    func seek(to target: MediaTime) {
        locked { $0.reset(at: target) }
    }

    func takeSkippedErrors() -> [MediaError] {
        locked { p in
            defer { p.skipped = [] }
            return p.skipped
        }
    }

    // MARK: Window (locked)

    /// Runs `body` under the lock (a read: the thread is not woken).
    private func reading<R>(_ body: (SubtitleRenditionPipeline) -> R) -> R {
        condition.lock()
        defer { condition.unlock() }
        return body(self)
    }

    /// Runs `body` under the lock, waking the thread after it.
    private func locked<R>(_ body: (SubtitleRenditionPipeline) -> R) -> R {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return body(self)
    }

    /// The segments to hold: from the one before the playhead's through those starting before `lookahead` after it.
    private var window: ClosedRange<Int>? {
        guard let segments, !segments.isEmpty else { return nil }
        let seconds = playhead.seconds
        let current = segments.lastIndex { $0.start <= seconds + 1e-6 } ?? 0
        let last = segments.lastIndex { $0.start < (playhead + lookahead).seconds } ?? current
        return max(current - 1, 0)...max(current, last)
    }

    /// The next segment to fetch: the first of the window neither held nor failed, while below the byte bound.
    private func nextSegment() -> Int? {
        guard failure == nil, bytes < byteLimit, let window else { return nil }
        return window.first { !held.contains($0) && !failed.contains($0) }
    }

    /// Drops the cues the playhead has passed, and forgets the segments before the window.
    private func forgetPassed() {
        let passed = cues.filter { $0.end < playhead }
        guard !passed.isEmpty || held.contains(where: { $0 < (window?.lowerBound ?? 0) }) else { return }
        cues.removeAll { $0.end < playhead }
        bytes -= passed.reduce(0) { $0 + Self.cost($1) }
        if let lower = window?.lowerBound { held = held.filter { $0 >= lower } }
    }

    private func reset(at target: MediaTime) {
        generation += 1
        cues = []
        bytes = 0
        held = []
        failed = []
        playhead = target.isNumeric ? max(target, .zero) : .zero
    }

    private static func cost(_ cue: TextCue) -> Int { cue.markup.utf8.count + cue.text.utf8.count + cueOverhead }

    // MARK: Thread

    private func run() {
        let listed: MediaPlaylist
        do throws(MediaError) {
            listed = try playlist()
        } catch {
            locked { $0.failure = error }
            onChange()
            return
        }
        locked { $0.segments = listed.segments }
        onChange()
        while true {
            condition.lock()
            while !stopped && nextSegment() == nil { condition.wait() }
            guard !stopped, let index = nextSegment() else {
                condition.unlock()
                return
            }
            let current = generation
            reading = index
            begun.append(index)
            condition.unlock()
            let segment = listed.segments[index]
            let result: Result<[TextCue], MediaError>
            var damage: MediaError?
            do throws(MediaError) {
                let decoded = try WebVTTSegment.decode(fetch(segment), url: segment.url)
                result = .success(decoded.cues.map { map($0, decoded.timestampMap) })
                damage = decoded.damage
            } catch {
                result = .failure(error)
            }
            locked { p in
                p.reading = nil
                guard p.generation == current else { return }
                switch result {
                case .success(let read):
                    p.held.insert(index)
                    for cue in read where cue.end >= p.playhead && !p.cues.contains(cue) { p.insert(cue) }
                    if let damage, p.skipped.count < 100 { p.skipped.append(damage) }
                case .failure(let error):
                    p.failed.insert(index)
                    if p.skipped.count < 100 { p.skipped.append(error) }
                }
            }
            onChange()
        }
    }

    /// `cue` with its times on the media's timeline: through the segment's `X-TIMESTAMP-MAP`, or, without one, as
    /// times from the presentation's start.
    private func map(_ cue: TextCue, _ timestampMap: WebVTTTimestampMap?) -> TextCue {
        guard let timestampMap else { return cue }
        var mapped = cue
        mapped.start = timestampMap.mediaTime(ofLocal: cue.start, presentationStart: presentationStart)
        mapped.end = timestampMap.mediaTime(ofLocal: cue.end, presentationStart: presentationStart)
        return mapped
    }

    /// Locked: adds `cue` in order of start.
    private func insert(_ cue: TextCue) {
        let index = cues.lastIndex { $0.start <= cue.start }.map { $0 + 1 } ?? 0
        cues.insert(cue, at: index)
        bytes += Self.cost(cue)
        peak = max(peak, bytes)
    }
}

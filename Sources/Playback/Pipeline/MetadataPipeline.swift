import Foundation
import MediaIO

/// Reads an item's timed metadata (ID3 in MPEG-TS, MP4 `mebx` tracks and `emsg` boxes) on a thread of its own, ahead of the playhead, into a
/// window of samples bounded in bytes and in time; the engine takes the samples the playhead reaches.
///
/// The reader reads at most ``lookahead`` past the playhead (the time up to which samples were taken), so that it
/// fetches no more of a remote item than its video does; and the window holds at most ``byteLimit`` bytes of
/// samples: at either bound the thread waits until the engine takes some. A seek back before what was taken, or
/// far ahead of the reader, opens the track again at the target (its demuxer of its own, opened on the thread:
/// FFmpeg's blocking calls never run on the engine's thread or Swift's pool), skipping the samples before it. All
/// state is guarded by `condition`.
final class MetadataPipeline: @unchecked Sendable {
    /// The window's default bound: ID3 samples are small (tens to hundreds of bytes), so this is thousands of them.
    static let defaultByteLimit = 1 << 20
    /// What a sample costs in the window beyond its bytes (its frames, their strings).
    static let sampleOverhead = 256
    /// How far past the playhead the reader reads by default.
    static let defaultLookahead = MediaTime(seconds: 10)
    /// How far past a time the reader must have read for every sample up to it to be read: a muxer places a sample
    /// near, not at, its time among the video's packets (FFmpeg's MPEG-TS muxer up to 0.7 s from it).
    static let coverageMargin = MediaTime(seconds: 1)

    /// Opens the reader at a time (nil: the start).
    private let open: @Sendable (MediaTime?) throws(MediaError) -> any TimedMetadataSource
    private let onChange: @Sendable () -> Void
    let byteLimit: Int
    /// How far past the playhead the reader reads.
    let lookahead: MediaTime
    private let condition = NSCondition()
    /// Samples not taken yet, in order of their time, none before `from`.
    private var samples: [TimedMetadataSample] = []
    private var bytes = 0
    /// Samples before this time are not kept (the last seek's target). One read after the engine took samples up
    /// to a later time (the thread fell behind a host clock) is still kept, and delivered late.
    private var from = MediaTime.negativeInfinity
    /// Every sample after this time is in the window or not read yet.
    private var takenUpTo = MediaTime.negativeInfinity
    /// Bumped by a seek that needs the track read again from its start.
    private var generation = 0
    /// How far into the media the reader has read (in this generation).
    private var position: MediaTime?
    /// The limit the reader stopped at (``lookahead`` past the playhead then), until the playhead moves on.
    private var pausedAt: MediaTime?
    /// Where the reader of the current generation opens (a seek's target; nil: the start).
    private var openAt: MediaTime?
    private var reachedEnd = false
    private var failure: MediaError?
    private var stopped = false

    /// A pipeline whose reader `open` makes (on the pipeline's thread) at a time (nil: the start), keeping at most
    /// about `byteLimit` bytes and reading at most `lookahead` past the playhead.
    init(
        byteLimit: Int = MetadataPipeline.defaultByteLimit, lookahead: MediaTime = MetadataPipeline.defaultLookahead,
        open: @escaping @Sendable (MediaTime?) throws(MediaError) -> any TimedMetadataSource,
        onChange: @escaping @Sendable () -> Void
    ) {
        self.byteLimit = byteLimit
        self.lookahead = lookahead
        self.open = open
        self.onChange = onChange
    }

    func start(name: String) {
        startDedicatedThread(name: "playctl.metadata.\(name)") { [self] in run() }
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    // MARK: Engine side (each call locks once)

    struct Snapshot: Sendable {
        var reachedEnd = false
        var failure: MediaError?
        /// The window is at its bound: the thread waits for the engine to take samples.
        var isFull = false
        /// The reader is ``MetadataPipeline/lookahead`` past the playhead: it waits for the playhead to move on.
        var isAhead = false
        /// How far into the media the reader has read, nil before it read anything.
        var position: MediaTime?
        /// The bytes the window holds (its samples' bytes and their overhead).
        var bytes = 0
        /// Nothing more comes until the engine takes samples or seeks.
        var isSettled: Bool { reachedEnd || failure != nil || isFull || isAhead }

        /// Whether every sample up to `time` has been read (or nothing more will be now).
        func covers(_ time: MediaTime) -> Bool {
            isSettled || (position.map { $0 >= time + MetadataPipeline.coverageMargin } ?? false)
        }
    }

    func snapshot() -> Snapshot {
        condition.lock()
        defer { condition.unlock() }
        return Snapshot(
            reachedEnd: reachedEnd, failure: failure, isFull: bytes >= byteLimit, isAhead: isAhead,
            position: position, bytes: bytes)
    }

    /// Removes and returns the samples at or before `time`, in order.
    func take(upTo time: MediaTime) -> [TimedMetadataSample] {
        condition.lock()
        defer { condition.unlock() }
        let count = samples.prefix { $0.time <= time }.count
        guard count > 0 else { return [] }
        let taken = Array(samples.prefix(count))
        samples.removeFirst(count)
        bytes -= taken.reduce(0) { $0 + Self.cost($1) }
        takenUpTo = max(takenUpTo, time)
        condition.broadcast()
        return taken
    }

    /// The time of the first sample not taken, among those read.
    var nextTime: MediaTime? {
        condition.lock()
        defer { condition.unlock() }
        return samples.first?.time
    }

    /// Playback continues from `target`: the samples before it are not delivered. A target at or before a time
    /// already taken, or more than ``lookahead`` past what the reader read, opens the reader again there.
    func seek(to target: MediaTime) {
        condition.lock()
        defer { condition.unlock() }
        if target <= takenUpTo || target > (position ?? .zero) + lookahead {
            generation += 1
            samples = []
            bytes = 0
            position = nil
            pausedAt = nil
            reachedEnd = false
            failure = nil
            takenUpTo = .negativeInfinity
            openAt = target
        } else {
            let drop = samples.prefix { $0.time < target }
            bytes -= drop.reduce(0) { $0 + Self.cost($1) }
            samples.removeFirst(drop.count)
        }
        from = target
        condition.broadcast()
    }

    /// Locked: how far the reader may read now: ``lookahead`` past the playhead (the time taken up to, or the last
    /// seek's target, or the start).
    private var readLimit: MediaTime {
        let playhead = max(takenUpTo, from)
        return (playhead.isNumeric ? max(playhead, .zero) : .zero) + lookahead
    }

    /// Locked: the reader waits for the playhead to move on.
    private var isAhead: Bool { pausedAt.map { readLimit <= $0 } ?? false }

    private static func cost(_ sample: TimedMetadataSample) -> Int { sample.bytes.count + sampleOverhead }

    // MARK: Thread

    private func run() {
        var reader: (any TimedMetadataSource)?
        var readerGeneration = -1
        while true {
            condition.lock()
            while !stopped && generation == readerGeneration
                && (bytes >= byteLimit || reachedEnd || failure != nil || isAhead)
            {
                condition.wait()
            }
            let (current, stop, start, limit) = (generation, stopped, openAt, readLimit)
            condition.unlock()
            if stop { return }
            if current != readerGeneration {
                reader = nil
                readerGeneration = current
                do throws(MediaError) {
                    reader = try open(start)
                } catch {
                    fail(generation: current, error)
                    continue
                }
            }
            guard let reader else { continue }
            let step: TimedMetadataStep
            do throws(MediaError) {
                step = try reader.next(until: limit)
            } catch {
                fail(generation: current, error)
                continue
            }
            condition.lock()
            if generation == current {
                position = reader.position
                switch step {
                case .sample(let next):
                    pausedAt = nil
                    if next.time >= from {
                        let index = samples.lastIndex { $0.time <= next.time }.map { $0 + 1 } ?? 0
                        samples.insert(next, at: index)
                        bytes += Self.cost(next)
                    }
                case .reachedLimit:
                    pausedAt = limit
                case .end:
                    reachedEnd = true
                }
            }
            condition.unlock()
            onChange()
        }
    }

    /// Records `error` as the reader's of `generation` (a seek since has opened another: then nothing).
    private func fail(generation failed: Int, _ error: MediaError) {
        condition.lock()
        if generation == failed { failure = error }
        condition.unlock()
        onChange()
    }
}

import Foundation
import MediaIO

/// Decodes one item's video on a thread of its own, ahead of presentation, into a small bounded queue.
///
/// The queue is bounded in frames and bytes (decoded pictures are large; the forward buffer of compressed data is
/// the file itself). Seeks are commands: the thread flushes, lands, and puts the landing frame at the head.
/// All state is guarded by `condition`; the engine reads it with one call at a time (``snapshot()``,
/// ``takeFrames(dueBy:atLeastOne:)``), and is woken through `onChange` when something changed.
final class VideoPipeline: @unchecked Sendable {
    struct Landing {
        let id: UInt64
        let frame: VideoFrame?
        let statistics: SeekStatistics
        let error: MediaError?
    }

    private let condition = NSCondition()
    private let reader: VideoFrameReader
    /// Frames the queue holds at most: the byte budget over the size of the pictures decoded last (a stream whose
    /// frame size changes changes it). Guarded by `condition`.
    private var capacity: Int
    private let byteBudget: Int
    private var queue: [VideoFrame] = []
    private var reachedEnd = false
    private var failure: MediaError?
    /// Damaged packets the decoder dropped so far (copied from the reader by the decode thread, under the lock).
    private var decodeErrorCount = 0
    private var pendingSeek: (id: UInt64, target: MediaTime, mode: SeekMode)?
    private var landings: [Landing] = []
    /// Gives up a read its source holds (``requestSeek(id:to:mode:)``), and lets it read again when the thread starts
    /// the seek; both under `condition`, so they come in the order of the seeks.
    private let readInterruption: ReadInterruption?

    /// How a seek interrupts the reader's source (``InterruptibleByteSource``).
    struct ReadInterruption: Sendable {
        let interrupt: @Sendable () -> Void
        let resume: @Sendable () -> Void
    }
    private var stopped = false
    private var busy = false
    /// Called (without the lock) whenever something changed that the engine may wait for.
    private let onChange: @Sendable () -> Void

    init(
        reader: VideoFrameReader, byteBudget: Int = Player.defaultDecodedVideoBytes,
        readInterruption: ReadInterruption? = nil,
        onChange: @escaping @Sendable () -> Void
    ) {
        self.reader = reader
        self.readInterruption = readInterruption
        self.byteBudget = byteBudget
        self.capacity = Self.capacity(byteBudget, width: reader.track.width ?? 640, height: reader.track.height ?? 360)
        self.onChange = onChange
    }

    /// How many pictures of `width`x`height` (4:2:0) fit `budget` bytes: 2 to 24.
    static func capacity(_ budget: Int, width: Int, height: Int) -> Int {
        min(max(budget / max(width * height * 3 / 2, 1), 2), 24)
    }

    /// Locked: queues `frame`, bounding the queue by the size of its picture.
    private func enqueue(_ frame: VideoFrame) {
        queue.append(frame)
        if let last = queue.dropLast().last, last.width == frame.width, last.height == frame.height { return }
        capacity = Self.capacity(byteBudget, width: frame.width, height: frame.height)
    }

    func start(name: String) {
        startDedicatedThread(name: "playctl.video.\(name)") { [self] in run() }
    }

    /// Stops the thread; frames and decoder are freed when the pipeline is released.
    func stop() {
        condition.lock()
        stopped = true
        queue.removeAll()
        landings.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    // MARK: Engine side (each call locks once)

    /// What the queue and the decoder are doing, at one instant.
    struct Snapshot: Sendable {
        /// Frames queued.
        var count = 0
        /// The first and last queued frames' times.
        var first: MediaTime?
        var last: MediaTime?
        /// The queue holds as many frames as it may.
        var isFull = false
        /// The decoder returned its last frame.
        var reachedEnd = false
        /// The decoder stopped on this error.
        var failure: MediaError?
        /// A seek is pending, or the thread is decoding toward the next frame with nothing queued.
        var isWorking = false
        /// A seek is pending.
        var hasPendingSeek = false
        /// Damaged packets the decoder dropped so far.
        var decodeErrors = 0

        /// The decoder will produce nothing more.
        var ended: Bool { reachedEnd || failure != nil }
        /// Nothing is queued though the decoder has neither ended nor a seek to do: the next frame is awaited.
        var isStarving: Bool { count == 0 && !ended && !hasPendingSeek }
        /// Idle: nothing pending, and the queue is full or the decoder ended.
        var isSettled: Bool { !isWorking && (isFull || ended) }
    }

    func snapshot() -> Snapshot {
        condition.lock()
        defer { condition.unlock() }
        return snapshotLocked()
    }

    private func snapshotLocked() -> Snapshot {
        Snapshot(
            count: queue.count, first: queue.first?.time, last: queue.last?.time, isFull: queue.count >= capacity,
            reachedEnd: reachedEnd, failure: failure, isWorking: pendingSeek != nil || (busy && queue.isEmpty),
            hasPendingSeek: pendingSeek != nil, decodeErrors: decodeErrorCount)
    }

    /// Takes the frames whose time is at or before `time` off the queue (with `atLeastOne`, the first frame even
    /// if it is not due: the poster of an item or a seek). Returns them and the queue's state after.
    func takeFrames(dueBy time: MediaTime, atLeastOne: Bool) -> (frames: [VideoFrame], after: Snapshot) {
        condition.lock()
        defer { condition.unlock() }
        var due: [VideoFrame] = []
        while let frame = queue.first, frame.time <= time || (atLeastOne && due.isEmpty) {
            due.append(queue.removeFirst())
        }
        if !due.isEmpty { condition.broadcast() }
        return (due, snapshotLocked())
    }

    /// Asks for a seek; any earlier pending one is replaced (its landing is never reported).
    func requestSeek(id: UInt64, to target: MediaTime, mode: SeekMode) {
        condition.lock()
        defer { condition.unlock() }
        pendingSeek = (id, target, mode)
        queue.removeAll()
        landings.removeAll()
        reachedEnd = false
        readInterruption?.interrupt()
        condition.broadcast()
    }

    /// The landing of seek `id`, once the thread has landed (taken: returned once).
    func takeLanding(id: UInt64) -> Landing? {
        condition.lock()
        defer { condition.unlock() }
        guard let index = landings.firstIndex(where: { $0.id == id }) else { return nil }
        return landings.remove(at: index)
    }

    // MARK: Thread

    private func run() {
        condition.lock()
        if !stopped && pendingSeek == nil {
            // The first frame is decoded alone, so it is ready before the decoder's threads have filled up.
            busy = true
            condition.unlock()
            let first = reader.decodeFirstFrameAlone()
            condition.lock()
            busy = false
            if let first, pendingSeek == nil, !stopped {
                enqueue(first)
                notify()
            }
        }
        while true {
            while !stopped && pendingSeek == nil && (queue.count >= capacity || reachedEnd || failure != nil) {
                condition.wait()
            }
            if stopped { break }
            if let seek = pendingSeek {
                pendingSeek = nil
                busy = true
                readInterruption?.resume()
                condition.unlock()
                let landing: Landing
                do {
                    let result = try reader.seek(to: seek.target, mode: seek.mode)
                    landing = Landing(id: seek.id, frame: result.frame, statistics: result.statistics, error: nil)
                } catch {
                    landing = Landing(id: seek.id, frame: nil, statistics: SeekStatistics(), error: error)
                }
                condition.lock()
                busy = false
                if pendingSeek == nil {
                    landings.append(landing)
                    if let frame = landing.frame {
                        queue.removeAll()
                        enqueue(frame)
                    }
                    if landing.error != nil { failure = landing.error }
                }
                notify()
                continue
            }
            busy = true
            condition.unlock()
            let next: Result<VideoFrame?, MediaError>
            do { next = .success(try reader.nextFrame()) } catch { next = .failure(error) }
            let errors = reader.decodeErrorCount
            condition.lock()
            decodeErrorCount = errors
            busy = false
            if pendingSeek != nil { continue }  // a seek arrived meanwhile: this frame belongs to the old position
            switch next {
            case .success(let frame?): enqueue(frame)
            case .success(nil): reachedEnd = true
            case .failure(let error): failure = error
            }
            notify()
        }
        condition.unlock()
    }

    private func notify() {
        condition.broadcast()
        condition.unlock()
        onChange()
        condition.lock()
    }
}

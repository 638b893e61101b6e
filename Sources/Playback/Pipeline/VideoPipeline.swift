import Foundation
import MediaIO

/// Decodes one item's video on a thread of its own, ahead of presentation, into a small bounded queue.
///
/// The queue is bounded in frames and bytes (decoded pictures are large; the forward buffer of compressed data is
/// the file itself). Seeks are commands: the thread flushes, lands, and puts the landing frame at the head.
/// All state is guarded by `condition`; the owner (the player's engine) waits on it for frames.
final class VideoPipeline: @unchecked Sendable {
    struct Landing {
        let id: UInt64
        let frame: VideoFrame?
        let statistics: SeekStatistics
        let error: MediaError?
    }

    let condition = NSCondition()
    private let reader: VideoFrameReader
    let capacity: Int
    private var queue: [VideoFrame] = []
    private(set) var reachedEnd = false
    private(set) var failure: MediaError?
    private var pendingSeek: (id: UInt64, target: MediaTime, mode: SeekMode)?
    private var landings: [Landing] = []
    private var stopped = false
    private var busy = false
    /// Called (without the lock) whenever something changed that the engine may wait for.
    private let onChange: @Sendable () -> Void

    init(reader: VideoFrameReader, byteBudget: Int = 8 << 20, onChange: @escaping @Sendable () -> Void) {
        self.reader = reader
        let frameBytes = max((reader.track.width ?? 640) * (reader.track.height ?? 360) * 3 / 2, 1)
        self.capacity = min(max(byteBudget / frameBytes, 2), 24)
        self.onChange = onChange
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

    // MARK: Engine side (call with `condition` locked)

    var frames: ArraySlice<VideoFrame> { queue[...] }
    var isFull: Bool { queue.count >= capacity }
    /// True while a seek is pending or the thread is decoding toward the next frame.
    var isWorking: Bool { pendingSeek != nil || (busy && queue.isEmpty) }
    /// Damaged packets the decoder dropped so far (copied from the reader by the decode thread, under the lock).
    private(set) var decodeErrorCount = 0

    func popFirst() -> VideoFrame? {
        guard !queue.isEmpty else { return nil }
        let frame = queue.removeFirst()
        condition.broadcast()
        return frame
    }

    /// Asks for a seek; any earlier pending one is replaced (its landing is never reported).
    func requestSeek(id: UInt64, to target: MediaTime, mode: SeekMode) {
        pendingSeek = (id, target, mode)
        queue.removeAll()
        landings.removeAll()
        reachedEnd = false
        condition.broadcast()
    }

    func takeLanding(id: UInt64) -> Landing? {
        guard let index = landings.firstIndex(where: { $0.id == id }) else { return nil }
        return landings.remove(at: index)
    }

    var hasPendingSeek: Bool { pendingSeek != nil }

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
                queue.append(first)
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
                    if let frame = landing.frame { queue = [frame] }
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
            case .success(let frame?): queue.append(frame)
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

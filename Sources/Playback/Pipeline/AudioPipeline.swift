import Foundation
import MediaIO

/// Decodes one item's audio on a thread of its own into a queue bounded by duration (about one second ahead).
/// Seeks are sample-accurate. All state is guarded by `condition`.
final class AudioPipeline: @unchecked Sendable {
    let condition = NSCondition()
    private let reader: AudioSampleReader
    private let bufferLimit: Double
    private var queue: [AudioBuffer] = []
    private var queuedSeconds: Double = 0
    private(set) var reachedEnd = false
    private(set) var failure: MediaError?
    private var pendingSeek: MediaTime?
    private var generation: UInt64 = 0
    private var stopped = false
    private var busy = false
    private let onChange: @Sendable () -> Void

    init(reader: AudioSampleReader, bufferLimit: Double = 1.0, onChange: @escaping @Sendable () -> Void) {
        self.reader = reader
        self.bufferLimit = bufferLimit
        self.onChange = onChange
    }

    var sampleRate: Int { reader.sampleRate }
    var channels: Int { reader.channels }

    func start(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = "playctl.audio.\(name)"
        thread.stackSize = 1 << 20
        thread.start()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    // MARK: Engine side (call with `condition` locked)

    var buffers: ArraySlice<AudioBuffer> { queue[...] }
    var isWorking: Bool { pendingSeek != nil || (busy && queue.isEmpty) }
    /// Idle: nothing pending, and the queue is full or the track ended.
    var isSettled: Bool { pendingSeek == nil && !busy && (queuedSeconds >= bufferLimit || reachedEnd || failure != nil) }

    func popFirst() -> AudioBuffer? {
        guard !queue.isEmpty else { return nil }
        let buffer = queue.removeFirst()
        queuedSeconds -= buffer.duration.seconds
        condition.broadcast()
        return buffer
    }

    func requestSeek(to target: MediaTime) {
        pendingSeek = target
        generation += 1
        queue.removeAll()
        queuedSeconds = 0
        reachedEnd = false
        condition.broadcast()
    }

    // MARK: Thread

    private func run() {
        condition.lock()
        while true {
            while !stopped && pendingSeek == nil && (queuedSeconds >= bufferLimit || reachedEnd || failure != nil) {
                condition.wait()
            }
            if stopped { break }
            let seek = pendingSeek
            pendingSeek = nil
            let startGeneration = generation
            busy = true
            condition.unlock()
            var result: Result<AudioBuffer?, MediaError>
            do {
                if let seek { try reader.seek(to: seek) }
                result = .success(try reader.nextBuffer())
            } catch {
                result = .failure(error)
            }
            condition.lock()
            busy = false
            if generation != startGeneration { continue }
            switch result {
            case .success(let buffer?):
                queue.append(buffer)
                queuedSeconds += buffer.duration.seconds
            case .success(nil): reachedEnd = true
            case .failure(let error): failure = error
            }
            condition.broadcast()
            condition.unlock()
            onChange()
            condition.lock()
        }
        condition.unlock()
    }
}

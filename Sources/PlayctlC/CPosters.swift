import CPlayctl
import Foundation
import Locking
import MediaCore
import Posters

/// What a `playctl_posters *` points at (retained by the handle): a poster pipeline, the app's requests in flight
/// (each a task waiting for its poster), the ready posters the app has not taken yet (at most `maxResults`, the
/// oldest dropped past it) and its C event queue.
final class CPosters: Sendable {
    let pipeline: PosterPipeline
    let source = EventSource()
    let maxResults: Int

    struct State {
        var inFlight: [UInt64: Task<Void, Never>] = [:]
        /// Ready posters by request id, and their ids oldest first.
        var ready: [UInt64: Poster] = [:]
        var order: [UInt64] = []
        var closed = false
    }

    let state = Locked(State())

    init(configuration: PosterPipeline.Configuration, maxResults: Int) {
        pipeline = PosterPipeline(configuration: configuration)
        self.maxResults = maxResults
    }

    /// Starts `request` as `id`; false when `id` is in flight or waiting to be taken, or the handle is closed.
    func request(_ request: PosterRequest, id: UInt64) -> Bool {
        state.withLock { state in
            guard !state.closed, state.inFlight[id] == nil, state.ready[id] == nil else { return false }
            let pipeline = self.pipeline
            state.inFlight[id] = Task.detached { [weak self] in
                let result: Result<Poster, MediaError>
                do throws(MediaError) {
                    result = .success(try await pipeline.poster(for: request))
                } catch {
                    result = .failure(error)
                }
                self?.finish(id, request.source, result)
            }
            return true
        }
    }

    /// Cancels request `id`; false when it is not in flight.
    func cancel(_ id: UInt64) -> Bool {
        guard let task = state.withLock({ $0.inFlight[id] }) else { return false }
        task.cancel()
        return true
    }

    /// The ready poster `id`, taken (forgotten) when `take`.
    func poster(_ id: UInt64, take: Bool) -> Poster? {
        state.withLock { state in
            guard take else { return state.ready[id] }
            guard let poster = state.ready.removeValue(forKey: id) else { return nil }
            state.order.removeAll { $0 == id }
            return poster
        }
    }

    /// Cancels every request; no event is queued afterwards.
    func close() {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            state.closed = true
            state.ready = [:]
            state.order = []
            return Array(state.inFlight.values)
        }
        source.close()
        for task in tasks { task.cancel() }
    }

    /// Request `id` ended: keeps the poster (dropping the oldest past the bound) and queues its event.
    private func finish(_ id: UInt64, _ sourceName: String, _ result: Result<Poster, MediaError>) {
        let open = state.withLock { state -> Bool in
            state.inFlight[id] = nil
            guard !state.closed, case .success(let poster) = result else { return !state.closed }
            state.ready[id] = poster
            state.order.append(id)
            while state.order.count > maxResults { state.ready[state.order.removeFirst()] = nil }
            return true
        }
        guard open else { return }
        var out = QueuedEvent(PLAYCTL_EVENT_POSTER)
        out.requestID = id
        out.item = sourceName
        switch result {
        case .success(let poster):
            out.width = Int32(clamping: poster.image.width)
            out.height = Int32(clamping: poster.image.height)
            out.time = poster.time.isNumeric ? poster.time.seconds : 0
            out.latency = poster.timings.total
        case .failure(let error):
            out.error = error.kind == .cancelled ? PLAYCTL_ERROR_CANCELLED.rawValue : CError.code(of: error)
            out.message = error.description
        }
        source.push(out)
    }

    /// Copies `poster`'s pixels into `rgba` as rows of width x 4 bytes.
    static func copy(_ poster: Poster, into rgba: UnsafeMutablePointer<UInt8>) {
        let image = poster.image
        let row = image.width * 4
        let stride = image.bytesPerRow.first ?? row
        let offset = image.planeOffsets.first ?? 0
        image.bytes.withUnsafeBufferPointer { bytes in
            for line in 0..<image.height {
                (rgba + line * row).update(from: bytes.baseAddress! + offset + line * stride, count: row)
            }
        }
    }
}

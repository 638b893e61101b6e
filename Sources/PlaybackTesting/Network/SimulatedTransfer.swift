import Foundation
import Loading
import Locking

/// One transfer of a ``SimulatedNetwork``: reads its file's bytes and hands them to its sink as the network's
/// clock allows.
final class SimulatedTransfer: TransferHandle, @unchecked Sendable {
    let request: TransferRequest
    let startedAt: Double
    private let sink: any TransferSink
    private let path: String?
    private weak var network: SimulatedNetwork?

    private struct State {
        var paused = false
        var finished = false
        var responded = false
        var position: Int64 = 0
        var end: Int64 = 0
        var delivered: Int64 = 0
    }

    private let state = Locked(State())

    init(
        request: TransferRequest, sink: any TransferSink, path: String?, startedAt: Double,
        network: SimulatedNetwork
    ) {
        self.request = request
        self.sink = sink
        self.path = path
        self.startedAt = startedAt
        self.network = network
    }

    var isPaused: Bool { state.withLock { $0.paused } }
    var isFinished: Bool { state.withLock { $0.finished } }

    func setPaused(_ paused: Bool) { state.withLock { $0.paused = paused } }
    func setMaximumRate(_ bytesPerSecond: Int64?) {}

    func cancel() {
        state.withLock { $0.finished = true }
        network?.remove(self)
    }

    func deliveryBegan() { sink.deliveryBegan() }
    func deliveryEnded() { sink.deliveryEnded() }

    /// Sends the response head, once its latency has passed (a missing file: a 404).
    func respond(servesRanges: Bool) {
        guard !state.withLock({ $0.finished || $0.responded }) else { return }
        state.withLock { $0.responded = true }
        guard let path, let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.int64Value
        else {
            finish(
                MediaError(
                    .httpStatus, url: request.url, operation: .read, code: 404,
                    reason: "the server answered 404 Not Found"))
            return
        }
        let stamp = Int64((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
        let validator = ResourceValidator(
            etag: "\"\(String(stamp, radix: 16))-\(String(size, radix: 16))\"",
            lastModified: nil)
        if let asked = request.validator, !asked.matches(validator) || !servesRanges {
            // If-Range with another version: the whole file, as a server does.
            start(at: 0, end: size, status: 200, total: size, validator: validator, ranges: servesRanges)
        } else if request.isRange && servesRanges {
            let end = min(request.end ?? size, size)
            start(at: min(request.start, size), end: end, status: 206, total: size, validator: validator, ranges: true)
        } else {
            start(at: 0, end: size, status: 200, total: size, validator: validator, ranges: servesRanges)
        }
    }

    private func start(
        at position: Int64, end: Int64, status: Int, total: Int64, validator: ResourceValidator,
        ranges: Bool
    ) {
        state.withLock {
            $0.position = position
            $0.end = end
        }
        let head = ResponseHead(
            status: status, start: position, totalLength: total, validator: validator,
            acceptsRanges: ranges)
        if !sink.transferReceived(head: head) { finish(nil) }
    }

    /// Delivers up to `count` bytes; returns how many went. With `dropAfter`, the connection breaks once it
    /// delivered that many.
    func deliver(upTo count: Int64, dropAfter: Int64?) -> Int64 {
        let (position, end, delivered, finished, responded) = state.withLock {
            ($0.position, $0.end, $0.delivered, $0.finished, $0.responded)
        }
        guard !finished, responded, count > 0, let path else { return 0 }
        var amount = min(count, end - position)
        if let dropAfter { amount = min(amount, max(dropAfter - delivered, 0)) }
        if amount > 0, let handle = FileHandle(forReadingAtPath: path) {
            defer { try? handle.close() }
            try? handle.seek(toOffset: UInt64(position))
            let data = (try? handle.read(upToCount: Int(amount))) ?? Data()
            state.withLock {
                $0.position += Int64(data.count)
                $0.delivered += Int64(data.count)
            }
            data.withUnsafeBytes { sink.transferReceived($0) }
            amount = Int64(data.count)
        }
        let now = state.withLock { ($0.position, $0.delivered) }
        if now.0 >= end {
            finish(nil)
        } else if let dropAfter, now.1 >= dropAfter {
            finish(
                MediaError(
                    .connectionLost, url: request.url, operation: .read,
                    reason: "the connection dropped (simulated) after \(now.1) bytes"))
        }
        return max(amount, 0)
    }

    private func finish(_ error: MediaError?) {
        guard
            !state.withLock({
                let was = $0.finished
                $0.finished = true
                return was
            })
        else { return }
        sink.transferFinished(error)
    }
}

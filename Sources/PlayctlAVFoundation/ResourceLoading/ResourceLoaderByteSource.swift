import MediaCore

/// The bytes of an asset with a custom URL scheme, asked of its ``AVAssetResourceLoader``'s delegate: the engine's
/// reader (a demuxer thread, never Swift's cooperative pool) waits while the delegate answers on its own queue.
///
/// The first read asks what the resource is (a content information request, with its first 2 bytes, as
/// AVFoundation does) unless the loader knows already; then each read that finds no bytes at its position asks for
/// up to ``requestLength`` bytes from there, cancelling the request it replaces when that one is still loading. A
/// source holds at most one request's bytes. `close()` cancels the request in flight and returns a waiting read.
final class ResourceLoaderByteSource: InterruptibleByteSource, @unchecked Sendable {
    /// The most bytes one data request asks for, and so the most a source holds.
    static let requestLength = 1 << 18

    private let loader: AVAssetResourceLoader
    private let url: URL
    /// The URL as the engine names the item, for errors.
    private let name: String
    private let channel = ResourceLoadingChannel()
    // `@unchecked Sendable`: what follows is read and changed only with `channel`'s lock held.
    private var position: Int64 = 0
    private var current: (request: AVAssetResourceLoadingRequest, delegate: DelegateCall?)?
    private var closed = false
    /// A seek gave up the reads (``interruptReads()``).
    private var interrupted = false

    init(loader: AVAssetResourceLoader, url: URL, name: String) {
        self.loader = loader
        self.url = url
        self.name = name
    }

    deinit { cancelCurrent() }

    var size: Int64? { loader.contentInformation.withLock { $0?.contentLength } }

    func seek(to offset: Int64) throws(MediaError) {
        guard offset >= 0 else {
            throw MediaError(.seekFailed, url: name, operation: .seek, reason: "negative offset \(offset)")
        }
        channel.withLock { position = offset }
    }

    func close() {
        channel.withLock {
            closed = true
            channel.condition.broadcast()
        }
        cancelCurrent()
    }

    func interruptReads() {
        channel.withLock {
            interrupted = true
            channel.condition.broadcast()
        }
    }

    func resumeReads() { channel.withLock { interrupted = false } }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        guard !buffer.isEmpty else { return 0 }
        guard let length = try contentLength() else { return 0 }
        channel.condition.lock()
        defer { channel.condition.unlock() }
        while true {
            if closed || interrupted { return 0 }
            if position >= length { return 0 }
            if let request = current?.request, let data = request.dataRequest {
                let start = data.requestedOffset
                let held = data.receivedLocked
                let end = start + Int64(held.count)
                if position >= start, position < end {
                    let count = min(buffer.count, Int(end - position))
                    held.withUnsafeBytes { bytes in
                        let from = Int(position - start)
                        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[from..<(from + count)]))
                    }
                    position += Int64(count)
                    return count
                }
                let inRange = position >= start && position < start + Int64(data.requestedLength)
                switch request.outcomeLocked {
                case .pending where inRange && position >= end:
                    channel.condition.wait()
                    continue
                case .failed(let reason) where inRange:
                    throw MediaError(.readFailed, url: name, operation: .read, reason: reason)
                case .finished where position == end && held.isEmpty:
                    throw MediaError(
                        .truncated, url: name, operation: .read,
                        reason: "the resource loader's delegate finished the request for bytes "
                            + "\(request.rangeText) of \(length) without giving any")
                default: break
                }
            }
            try startRequest(at: position, length: Int(min(Int64(Self.requestLength), length - position)))
        }
    }

    /// The resource's length, asking the delegate when the loader does not know it (nil when closed meanwhile).
    private func contentLength() throws(MediaError) -> Int64? {
        if let known = size { return known }
        channel.condition.lock()
        defer { channel.condition.unlock() }
        if closed || interrupted { return nil }
        let request = try startRequest(at: 0, length: 2, asksForInformation: true)
        while request.outcomeLocked == .pending, !closed, !interrupted { channel.condition.wait() }
        switch request.outcomeLocked {
        case .pending, .cancelled: return nil
        case .failed(let reason): throw MediaError(.readFailed, url: name, operation: .open, reason: reason)
        case .finished:
            guard let information = request.contentInformationRequest?.informationLocked,
                information.contentLength > 0
            else {
                throw MediaError(
                    .invalidArgument, url: name, operation: .open,
                    reason: "the resource loader's delegate finished the content information request without a "
                        + "contentLength")
            }
            loader.contentInformation.withLock { $0 = information }
            return information.contentLength
        }
    }

    /// Makes the current request one for `length` bytes at `offset` (cancelling the one it replaces) and hands it to
    /// the delegate. The caller holds `channel`'s lock; the delegate is called later, on its queue.
    @discardableResult
    private func startRequest(
        at offset: Int64, length: Int, asksForInformation: Bool = false
    ) throws(MediaError) -> AVAssetResourceLoadingRequest {
        if let replaced = current, replaced.request.cancelLocked(), let delegate = replaced.delegate {
            delegate.cancel(replaced.request)
        }
        let request = AVAssetResourceLoadingRequest(
            url: url, offset: offset, length: length, asksForInformation: asksForInformation, channel: channel)
        guard let delegate = loader.currentDelegate() else {
            current = nil
            throw MediaError(
                .invalidArgument, url: name, operation: asksForInformation ? .open : .read,
                reason: "no resource loader delegate is set for the custom URL scheme \(url.scheme ?? "")")
        }
        current = (request, delegate)
        delegate.start(request)
        return request
    }

    private func cancelCurrent() {
        let cancelled = channel.withLock { () -> (AVAssetResourceLoadingRequest, DelegateCall)? in
            guard let current, let delegate = current.delegate, current.request.cancelLocked() else { return nil }
            return (current.request, delegate)
        }
        if let (request, delegate) = cancelled { delegate.cancel(request) }
    }
}

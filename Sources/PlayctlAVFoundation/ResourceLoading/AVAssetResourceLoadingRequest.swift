/// The lock and condition a resource-loader byte source shares with its requests: a delegate's answers (from any
/// thread) change a request under it and wake the reader waiting for them.
final class ResourceLoadingChannel: Sendable {
    /// `NSCondition` is a pthread mutex and condition variable (ThreadSanitizer understands both).
    let condition = NSCondition()

    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }
}

/// One request for an asset's bytes (and, for the first, what the resource is), handed to an
/// ``AVAssetResourceLoaderDelegate``, as AVFoundation's `AVAssetResourceLoadingRequest`. The delegate answers it
/// from any thread: content information, then bytes with `dataRequest.respond(with:)`, then `finishLoading()` (or
/// `finishLoading(with:)` when it cannot).
open class AVAssetResourceLoadingRequest: NSObject, @unchecked Sendable {
    /// Where a request stands.
    enum Outcome: Equatable {
        case pending, finished, cancelled
        case failed(String)
    }

    /// The URL asked for (the asset's).
    public let request: URLRequest
    /// Present on the first request of an asset: what the delegate must say about the resource before
    /// `finishLoading()`.
    public let contentInformationRequest: AVAssetResourceLoadingContentInformationRequest?
    /// The bytes asked for.
    public let dataRequest: AVAssetResourceLoadingDataRequest?

    let channel: ResourceLoadingChannel
    // Guarded by `channel`.
    private var storedOutcome = Outcome.pending
    private var storedResponse: URLResponse?
    private var storedRedirect: URLRequest?
    private var storedAccepted = false

    init(url: URL, offset: Int64, length: Int, asksForInformation: Bool, channel: ResourceLoadingChannel) {
        self.channel = channel
        request = URLRequest(url: url)
        contentInformationRequest =
            asksForInformation ? AVAssetResourceLoadingContentInformationRequest(channel: channel) : nil
        dataRequest = AVAssetResourceLoadingDataRequest(
            requestedOffset: offset, requestedLength: length, channel: channel)
        super.init()
        dataRequest?.owner = self
    }

    /// Whether the request was finished (by either `finishLoading`) or failed.
    public var isFinished: Bool {
        channel.withLock {
            switch storedOutcome {
            case .finished, .failed: return true
            case .pending, .cancelled: return false
            }
        }
    }

    /// Whether the engine no longer needs the request; answers to it are ignored.
    public var isCancelled: Bool { channel.withLock { storedOutcome == .cancelled } }

    /// The response the delegate describes the resource with (kept; the content information request is what is
    /// read).
    public var response: URLResponse? {
        get { channel.withLock { storedResponse } }
        set { channel.withLock { storedResponse = newValue } }
    }

    /// A redirect the delegate sets (kept; not followed: the engine reads only what the delegate responds with).
    public var redirect: URLRequest? {
        get { channel.withLock { storedRedirect } }
        set { channel.withLock { storedRedirect = newValue } }
    }

    /// Everything asked for was given: the reader goes on (a data request answered with fewer bytes than asked
    /// leads to another request from where the answer ended).
    public func finishLoading() { settle(.finished) }

    /// The delegate cannot load the request: the read fails with a `MediaError` naming the asset's URL and
    /// `error`'s description, and the item with it. `nil` finishes the request as `finishLoading()` does.
    public func finishLoading(with error: Error?) {
        guard let error else { return settle(.finished) }
        settle(.failed("the resource loader's delegate failed the request: \(error.localizedDescription)"))
    }

    /// Whether the delegate accepted it (only then is it told of a cancellation).
    var accepted: Bool {
        get { channel.withLock { storedAccepted } }
        set { channel.withLock { storedAccepted = newValue } }
    }

    /// Fails the request with `reason`.
    func fail(reason: String) { settle(.failed(reason)) }

    /// Where it stands (the caller holds `channel`'s lock).
    var outcomeLocked: Outcome { storedOutcome }

    /// Marks a pending request cancelled (the caller holds `channel`'s lock); false when it was settled already.
    func cancelLocked() -> Bool {
        guard storedOutcome == .pending else { return false }
        storedOutcome = .cancelled
        return true
    }

    /// "offset..<end" for messages.
    var rangeText: String {
        guard let dataRequest else { return "-" }
        return "\(dataRequest.requestedOffset)..<\(dataRequest.requestedOffset + Int64(dataRequest.requestedLength))"
    }

    private func settle(_ outcome: Outcome) {
        channel.withLock {
            guard storedOutcome == .pending else { return }
            storedOutcome = outcome
            channel.condition.broadcast()
        }
    }
}

/// The bytes a request asks for, as AVFoundation's `AVAssetResourceLoadingDataRequest`: `requestedLength` bytes
/// from `requestedOffset`, given in order with ``respond(with:)``.
open class AVAssetResourceLoadingDataRequest: NSObject, @unchecked Sendable {
    /// The first byte asked for.
    public let requestedOffset: Int64
    /// How many bytes are asked for (at most the loader's request size, so what one request holds is bounded).
    public let requestedLength: Int
    /// Always false: the engine asks for bounded ranges, one after another.
    public let requestsAllDataToEndOfResource = false

    private let channel: ResourceLoadingChannel
    // Guarded by `channel`: the bytes given so far, from `requestedOffset` (never more than `requestedLength`).
    private var received: [UInt8] = []
    /// The request this is part of (set once, before the request is handed out).
    weak var owner: AVAssetResourceLoadingRequest?

    init(requestedOffset: Int64, requestedLength: Int, channel: ResourceLoadingChannel) {
        self.requestedOffset = requestedOffset
        self.requestedLength = requestedLength
        self.channel = channel
        super.init()
    }

    /// The offset of the next byte the delegate should give.
    public var currentOffset: Int64 { channel.withLock { requestedOffset + Int64(received.count) } }

    /// Gives the next bytes (from ``currentOffset``). Bytes beyond `requestedLength`, and answers to a request
    /// finished or cancelled, are dropped.
    public func respond(with data: Data) {
        channel.withLock {
            guard owner?.outcomeLocked == .pending else { return }
            let room = requestedLength - received.count
            guard room > 0, !data.isEmpty else { return }
            received.append(contentsOf: data.prefix(room))
            channel.condition.broadcast()
        }
    }

    /// The bytes given so far (the caller holds the channel's lock).
    var receivedLocked: [UInt8] { received }
}

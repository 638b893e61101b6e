import Locking

/// Loads an `AVURLAsset`'s bytes through an app's delegate, as AVFoundation's `AVAssetResourceLoader`: for a URL
/// whose scheme is not `file`, `http` or `https` (a custom scheme), every byte the engine reads is asked of the
/// delegate as an ``AVAssetResourceLoadingRequest`` and answered by it.
///
/// Set the delegate before the asset's item is given to a player (or its properties are loaded). The delegate is
/// held weakly and called only on the queue given, never under an engine lock; the engine's reader waits on a
/// thread of its own while the delegate answers.
open class AVAssetResourceLoader: NSObject, @unchecked Sendable {
    private struct Delegation {
        weak var delegate: (any AVAssetResourceLoaderDelegate)?
        var queue: DispatchQueue?
    }

    private let delegation = Locked(Delegation())
    /// The content information a delegate gave for this loader's asset (asked once, shared by its readers).
    let contentInformation = Locked<ContentInformation?>(nil)

    /// What a content information request learnt.
    struct ContentInformation: Sendable {
        var contentLength: Int64
        var contentType: String?
        var isByteRangeAccessSupported: Bool
    }

    override init() { super.init() }

    /// The delegate (held weakly), or nil.
    public var delegate: (any AVAssetResourceLoaderDelegate)? { delegation.withLock { $0.delegate } }

    /// The queue the delegate is called on.
    public var delegateQueue: DispatchQueue? { delegation.withLock { $0.queue } }

    /// Accepted and kept (there are no content keys to preload).
    public var preloadsEligibleContentKeys = false

    /// Sets the delegate and the queue it is called on (a serial queue of the loader's own when `queue` is nil;
    /// AVFoundation requires one).
    public func setDelegate(_ delegate: (any AVAssetResourceLoaderDelegate)?, queue: DispatchQueue?) {
        delegation.withLock {
            $0.delegate = delegate
            $0.queue = delegate == nil ? nil : (queue ?? DispatchQueue(label: "playctl.resource-loader"))
        }
    }

    /// The delegate and its queue, when a delegate is set.
    func currentDelegate() -> DelegateCall? {
        delegation.withLock { delegation in
            guard let delegate = delegation.delegate, let queue = delegation.queue else { return nil }
            return DelegateCall(loader: self, delegate: delegate, queue: queue)
        }
    }

    /// Whether the engine asks a loader's delegate for `url`'s bytes: any URL with a scheme other than `file`,
    /// `http` and `https`.
    static func handlesScheme(of url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), !scheme.isEmpty else { return false }
        return !["file", "http", "https"].contains(scheme)
    }
}

/// One delegate to call on its queue.
///
/// `@unchecked Sendable`: the delegate is an app object that is not `Sendable`; it is only ever called inside blocks
/// run on its own queue, as AVFoundation promises (`setDelegate(_:queue:)`), so no two threads touch it at once
/// through this value.
struct DelegateCall: @unchecked Sendable {
    let loader: AVAssetResourceLoader
    let delegate: any AVAssetResourceLoaderDelegate
    let queue: DispatchQueue

    /// Hands `request` to the delegate; a request it declines fails.
    func start(_ request: AVAssetResourceLoadingRequest) {
        queue.async {
            guard !request.isCancelled else { return }
            let accepted = delegate.resourceLoader(loader, shouldWaitForLoadingOfRequestedResource: request)
            request.accepted = accepted
            if !accepted {
                request.fail(
                    reason: "the resource loader's delegate declined the request for bytes \(request.rangeText)")
            }
        }
    }

    /// Tells the delegate that `request` (which it accepted) was cancelled.
    func cancel(_ request: AVAssetResourceLoadingRequest) {
        queue.async {
            guard request.accepted else { return }
            delegate.resourceLoader(loader, didCancel: request)
        }
    }
}

/// What an app implements to answer an ``AVAssetResourceLoader``'s requests, as AVFoundation's
/// `AVAssetResourceLoaderDelegate`. Every method is optional (the extension gives defaults: decline, and do nothing).
public protocol AVAssetResourceLoaderDelegate: NSObjectProtocol {
    /// Whether the delegate will load `loadingRequest` (then it answers with `respond(with:)` and
    /// `finishLoading()`, or `finishLoading(with:)`, later or at once, from any thread). `false` fails the request.
    func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader,
        shouldWaitForLoadingOfRequestedResource loadingRequest: AVAssetResourceLoadingRequest
    ) -> Bool
    /// Renewal requests are never made (there are no content keys): not called.
    func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader,
        shouldWaitForRenewalOfRequestedResource renewalRequest: AVAssetResourceLoadingRequest
    ) -> Bool
    /// A request the delegate accepted is no longer needed (the reader moved elsewhere, or the item went away).
    func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader, didCancel loadingRequest: AVAssetResourceLoadingRequest)
}

extension AVAssetResourceLoaderDelegate {
    /// Declines: the request fails.
    public func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader,
        shouldWaitForLoadingOfRequestedResource loadingRequest: AVAssetResourceLoadingRequest
    ) -> Bool { false }
    /// Declines.
    public func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader,
        shouldWaitForRenewalOfRequestedResource renewalRequest: AVAssetResourceLoadingRequest
    ) -> Bool { false }
    /// Does nothing.
    public func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader, didCancel loadingRequest: AVAssetResourceLoadingRequest
    ) {}
}

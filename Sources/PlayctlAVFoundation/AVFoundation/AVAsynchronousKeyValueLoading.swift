/// Loading an asset's properties, as AVFoundation's `AVAsynchronousKeyValueLoading`: typed and `async`
/// (`load(_:)`), or string-keyed with a completion handler.
public protocol AVAsynchronousKeyValueLoading {
    /// Where the loading of `key` stands; when `.failed`, `outError` receives why.
    func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus
    /// Loads `keys` (all from one probe of the media) and calls `handler` once done, on a thread of the loader.
    func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)?)
}

extension AVAsset {
    /// The string keys this asset loads: `duration`, `playable`, `tracks`, `preferredRate`.
    static let loadableKeys: Set<String> = ["duration", "playable", "tracks", "preferredRate"]

    /// See ``AVAsynchronousKeyValueLoading``. An unknown key is `.failed`.
    public func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus {
        guard Self.loadableKeys.contains(key) else {
            outError?.pointee = AVPlayerItem.nsError("\(key) is not a property this asset loads")
            return .failed
        }
        let state = loadState
        if state.cancelled { return .cancelled }
        switch state.result {
        case .success: return .loaded
        case .failure(let error):
            outError?.pointee = error
            return .failed
        case nil: return state.started ? .loading : .unknown
        }
    }

    /// Loads `keys`, as the `async` form of ``loadValuesAsynchronously(forKeys:completionHandler:)``: returns once
    /// they are loaded (or failed: see ``statusOfValue(forKey:error:)``).
    public func loadValues(forKeys keys: [String]) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            loadValuesAsynchronously(forKeys: keys) { done.resume() }
        }
    }

    /// See ``AVAsynchronousKeyValueLoading``.
    public func loadValuesAsynchronously(
        forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)? = nil
    ) {
        whenLoaded { handler?() }
    }
}

extension AVAsynchronousKeyValueLoading where Self: AVAsset {
    /// The value of `property`, loading it first when needed.
    /// - Throws: the `NSError` of a failed load (the media is missing, not media, or cannot be decoded).
    public func load<T>(_ property: AVAsyncProperty<Self, T>) async throws -> T {
        try property.value(try await probe().get())
    }

    /// The values of two properties, loaded together.
    public func load<A, B>(_ a: AVAsyncProperty<Self, A>, _ b: AVAsyncProperty<Self, B>) async throws -> (A, B) {
        let probe = try await probe().get()
        return (try a.value(probe), try b.value(probe))
    }

    /// The values of three properties, loaded together.
    public func load<A, B, C>(
        _ a: AVAsyncProperty<Self, A>, _ b: AVAsyncProperty<Self, B>, _ c: AVAsyncProperty<Self, C>
    ) async throws -> (A, B, C) {
        let probe = try await probe().get()
        return (try a.value(probe), try b.value(probe), try c.value(probe))
    }

    /// Where the loading of `property` stands, as `status(of:)`.
    public func status<T>(of property: AVAsyncProperty<Self, T>) -> AVAsyncPropertyStatus<T> {
        let state = loadState
        if state.cancelled { return .failed(Self.cancelledError) }
        switch state.result {
        case .success(let probe):
            do {
                return .loaded(try property.value(probe))
            } catch {
                return .failed(error)
            }
        case .failure(let error): return .failed(error)
        case nil: return state.started ? .loading : .notYetLoaded
        }
    }
}

/// Where the loading of a typed property stands, as `AVAsyncProperty.Status`.
public enum AVAsyncPropertyStatus<Value> {
    case notYetLoaded
    case loading
    case loaded(Value)
    case failed(Error)
}

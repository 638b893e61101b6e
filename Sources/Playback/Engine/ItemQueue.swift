/// A player's items, the current one first and then the queue, and how far each has loaded: a value the engine
/// keeps behind its lock. What must happen outside the lock (stopping an item's decoders, closing its sources) is
/// returned as ``EngineWork``.
struct ItemQueue: Sendable {
    /// How far one item has loaded.
    enum Load: Sendable {
        /// On a loader thread, reading through these sources.
        case loading(OpenedSources)
        case ready(LoadedItem)
        case failed(MediaError)
    }

    /// The current item first, then the queue.
    private(set) var items: [PlayerItem] = []
    private var loads: [ObjectIdentifier: Load] = [:]
    /// Finished loads not applied yet (at once under a host clock, at the next advance under a manual one).
    private var results: [(item: PlayerItem, result: Result<LoadedItem, MediaError>)] = []
    /// Loader threads still running.
    private(set) var loadsInFlight = 0

    var current: PlayerItem? { items.first }

    /// The current item's decoding machinery, once it has loaded.
    var currentLoaded: LoadedItem? {
        guard let item = current, case .ready(let loaded)? = loads[ObjectIdentifier(item)] else { return nil }
        return loaded
    }

    /// `item`'s decoding machinery, once it has loaded.
    func loaded(_ item: PlayerItem) -> LoadedItem? {
        guard case .ready(let loaded)? = loads[ObjectIdentifier(item)] else { return nil }
        return loaded
    }

    /// The sources `item`'s readers opened (loading or loaded).
    func sources(of item: PlayerItem) -> OpenedSources? {
        switch loads[ObjectIdentifier(item)] {
        case .loading(let sources)?: return sources
        case .ready(let loaded)?: return loaded.sources
        default: return nil
        }
    }

    /// Whether the current item failed to load.
    var currentFailed: Bool {
        guard let item = current, case .failed? = loads[ObjectIdentifier(item)] else { return false }
        return true
    }

    func contains(_ item: PlayerItem) -> Bool { items.contains { $0 === item } }

    /// Loads whose readers wait for bytes that only the passing of clock time will bring.
    var loadsWaitingForClock: Int {
        items.filter { item in
            guard case .loading(let sources)? = loads[ObjectIdentifier(item)] else { return false }
            return sources.isWaitingForClock()
        }.count
    }

    /// Whether some finished load waits to be applied.
    var hasResults: Bool { !results.isEmpty }

    // MARK: Loading

    /// Records that `item` starts loading through `sources`. Returns false when it is loading or loaded already.
    mutating func beginLoading(_ item: PlayerItem, sources: OpenedSources) -> Bool {
        let key = ObjectIdentifier(item)
        guard loads[key] == nil else { return false }
        loads[key] = .loading(sources)
        loadsInFlight += 1
        return true
    }

    /// A loader thread finished.
    mutating func loadFinished(_ item: PlayerItem, _ result: Result<LoadedItem, MediaError>) {
        loadsInFlight -= 1
        results.append((item, result))
    }

    /// The finished loads of items still here, in item creation order; the loadedItems of items gone meanwhile are
    /// returned to be stopped.
    mutating func takeResults() -> (apply: [(PlayerItem, Result<LoadedItem, MediaError>)], stop: [EngineWork]) {
        let finished = results.sorted { $0.item.serial < $1.item.serial }
        results.removeAll()
        var apply: [(PlayerItem, Result<LoadedItem, MediaError>)] = []
        var stop: [EngineWork] = []
        for (item, result) in finished {
            if loads[ObjectIdentifier(item)] != nil, contains(item) {
                apply.append((item, result))
            } else if case .success(let loaded) = result {
                stop.append(.stopLoadedItem(loaded))
            }
        }
        return (apply, stop)
    }

    mutating func setLoaded(_ item: PlayerItem, _ result: Result<LoadedItem, MediaError>) {
        switch result {
        case .success(let loaded): loads[ObjectIdentifier(item)] = .ready(loaded)
        case .failure(let error): loads[ObjectIdentifier(item)] = .failed(error)
        }
    }

    /// The items that should be loading now: the current one and the next (so an advance has frames ready).
    var upcoming: ArraySlice<PlayerItem> { items.prefix(2) }

    // MARK: Changing the list

    /// Makes `item` the current item (moving it to the front if it is queued), after `removeCurrent()`.
    mutating func makeCurrent(_ item: PlayerItem) {
        if let index = items.firstIndex(where: { $0 === item }) { items.remove(at: index) }
        items.insert(item, at: 0)
    }

    /// Removes the current item from the front; returns what must stop if it is not queued again later.
    mutating func removeCurrent() -> [EngineWork] {
        guard let old = items.first else { return [] }
        items.removeFirst()
        return contains(old) ? [] : release(old)
    }

    /// Inserts `item` after `after` (at the end when nil or not queued).
    mutating func insert(_ item: PlayerItem, after: PlayerItem?) {
        if let after, let index = items.firstIndex(where: { $0 === after }) {
            items.insert(item, at: index + 1)
        } else {
            items.append(item)
        }
    }

    /// Removes a queued item that is not the current one; returns what must stop.
    mutating func remove(_ item: PlayerItem) -> [EngineWork] {
        guard let index = items.firstIndex(where: { $0 === item }), index > 0 else { return [] }
        items.remove(at: index)
        return release(item)
    }

    /// Forgets `item`'s load: its decoders stop, its sources close, and it is detached from the player.
    private mutating func release(_ item: PlayerItem) -> [EngineWork] {
        var work: [EngineWork] = [.detach(item)]
        switch loads.removeValue(forKey: ObjectIdentifier(item)) {
        case .ready(let loaded)?: work.append(.stopLoadedItem(loaded))
        case .loading(let sources)?: work.append(.closeSources(sources))
        case .failed?, nil: break
        }
        return work
    }

    /// Empties the queue (the player is invalidated); returns what must stop.
    mutating func removeAll() -> [EngineWork] {
        var work: [EngineWork] = []
        for item in items {
            work.append(.detach(item))
        }
        for load in loads.values {
            switch load {
            case .ready(let loaded): work.append(.stopLoadedItem(loaded))
            case .loading(let sources): work.append(.closeSources(sources))
            case .failed: break
            }
        }
        items.removeAll()
        loads.removeAll()
        results.removeAll()
        return work
    }
}

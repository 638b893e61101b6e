import Loading

/// Warm connections: where the window moves, the servers of the items around the active one that have no
/// connection get one opened ahead of their bytes, so the swipe that reaches them (or their prefetch, once the
/// link is free) pays no connection setup.
extension FeedState {
    /// Whether `input` may move the prefetch window (the servers' connections are then read before the step).
    static func movesWindow(_ input: Input) -> Bool {
        switch input {
        case .scroll, .append, .pageLoaded, .network: return true
        default: return false
        }
    }

    /// Decides a ``FeedWork/preconnect(index:)`` for each server of the active item and the window around it
    /// (``PrefetchPlanner/ranked()``, nearest first) that is in neither `connected` nor this step's work already (an
    /// item loaded or prefetched now opens its own), once per server.
    mutating func preconnect(around connected: Set<HTTPOrigin>) {
        guard planner.active != nil else { return }
        var covered = connected
        for index in work.compactMap(\.readsBytesOf) {
            guard entries.indices.contains(index), let origin = HTTPOrigin(url: url(of: index)) else { continue }
            covered.insert(origin)
        }
        for index in Array(planner.visible) + planner.ranked() {
            guard entries.indices.contains(index), !failed.contains(index), RemoteLoading.isRemote(url(of: index)),
                let origin = HTTPOrigin(url: url(of: index)), !covered.contains(origin)
            else { continue }
            covered.insert(origin)
            work.append(.preconnect(index: index))
        }
    }
}

import Loading
import MediaCore

/// Size probes (decisions): under an autoload cap, a video whose entry tells no size is sized before it loads (the
/// planner's ``PrefetchPlanner/Action/probeSize(index:)``, done by the driver through the loading); the answer goes
/// to the planner, which caps the item or lets it load. A failed probe is reported and leaves the size unknown: the
/// item loads as one whose entry tells no size (never capped).
extension FeedState {
    mutating func sizeProbed(_ index: Int, _ result: Result<ResourceLength, MediaError>) {
        guard entries.indices.contains(index) else { return }
        switch result {
        case .success(let length):
            emit(.sized(index: index, bytes: length.bytes, fromCache: length.fromCache))
            perform(planner.sized(index, bytes: length.bytes))
        case .failure(let error):
            summary.sizeProbeFailures += 1
            emit(.sizeProbeFailed(index: index, error: error.description))
            perform(planner.sized(index, bytes: nil))
        }
        noteSizing()
    }

    /// Keeps when each item on screen began waiting for its size (its activation counts from then), and forgets
    /// the items no longer waiting on screen.
    mutating func noteSizing() {
        for index in planner.visible where planner.state(of: index) == .sizing && sizingSince[index] == nil {
            sizingSince[index] = now
        }
        sizingSince = sizingSince.filter { planner.isVisible($0.key) && planner.state(of: $0.key) == .sizing }
    }
}

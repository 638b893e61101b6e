import Dispatch
import Posters

/// Posters (locked): every item in the prefetch window gets one, the item on screen first; items leaving the
/// window stop waiting for theirs (the pipeline stops the work when nobody else waits).
extension FeedController {
    func updatePosters(visible: Int, _ state: inout FeedState) {
        guard let posters, let size = configuration.posterSize else { return }
        if state.posterVisible != visible {
            state.posterVisible = visible
            state.posters[visible, default: FeedState.PosterSlot()].visibleAt = now
            state.posters[visible]?.reported = false
        }
        let wanted = [visible] + state.planner.ranked()
        for (index, slot) in state.posters where !wanted.contains(index) {
            slot.task?.cancel()
            state.posters[index] = nil
        }
        for index in wanted where state.posters[index]?.task == nil && state.posters[index]?.ready == nil {
            let request = PosterRequest(
                source: entries[index].url, width: size.width, height: size.height, fit: .fill,
                priority: index == visible ? .visible : .prefetch)
            let task = Task { [weak self] in
                do throws(MediaError) {
                    let poster = try await posters.poster(for: request)
                    self?.handle(.posterReady(index: index, fromCache: poster.fromCache))
                } catch {
                    self?.handle(.posterFailed(index: index))
                }
            }
            state.posters[index, default: FeedState.PosterSlot()].task = task
        }
        if let slot = state.posters[visible], slot.ready != nil { reportPoster(visible, &state) }
    }

    func posterReady(_ index: Int, fromCache: Bool, _ state: inout FeedState) {
        guard state.posters[index] != nil else { return }
        state.posters[index]?.task = nil
        state.posters[index]?.ready = now
        state.summary.postersReady += 1
        if state.posters[index]?.visibleAt != nil { reportPoster(index, fromCache: fromCache, &state) }
    }

    /// `feed.poster` for an item on screen whose poster is ready: the latency from coming on screen.
    private func reportPoster(_ index: Int, fromCache: Bool = true, _ state: inout FeedState) {
        guard let slot = state.posters[index], !slot.reported, let ready = slot.ready, let visible = slot.visibleAt
        else { return }
        let latency = max(ready - visible, 0)
        state.posters[index]?.reported = true
        if state.posterLatencies.count < FeedState.latencyLimit { state.posterLatencies.append(latency) }
        emit(.poster(index: index, latency: latency, fromCache: fromCache), &state)
    }
}

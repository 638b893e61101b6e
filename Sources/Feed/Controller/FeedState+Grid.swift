import Loading

/// A grid (``FeedLayout/grid(columns:rows:)``, decisions): a scroll moves the visible window to the row of the item
/// scrolled to; the items that come into view become active (each plays in a player of its own), those that leave
/// give their players back; one visible item has the sound (``audible``), the others are muted.
extension FeedState {
    /// The user scrolled the grid so that the row holding `index` is the first on screen.
    mutating func scrollGrid(to index: Int, speed: Double) {
        let first = max(configuration.layout.rowStart(of: index), entries.startIndex)
        let before = planner.active.map { _ in planner.visible } ?? 0..<0
        let after = planner.visible(from: first)
        // The item with the sound keeps it while it stays on screen; else the first visible one has it (decided
        // before the items coming into view start, muted or not).
        if planner.active != first { gridScrolls += 1 }
        let keeps = audible.map { after.contains($0) } ?? false
        if !keeps { audible = first }
        for shown in after where !before.contains(shown) { emit(.visible(index: shown)) }
        perform(planner.scroll(to: first, speed: speed))
        updatePosters(visible: first)
        for shown in after where !before.contains(shown) && failed.contains(shown) {
            // Scrolled onto an item that failed before: the user sees its error cell.
            summary.activations += 1
            summary.loaderImpressions += 1
        }
        guard !keeps else { return }
        // Visible (and muted) before: it has the sound now. (The one that had it left the screen and its player.)
        if before.contains(first), slots[first]?.playerIndex != nil {
            work.append(.setMuted(index: first, muted: false))
        }
        emit(.audible(index: first))
    }

    /// The user tapped visible item `index`: its player has the sound, the one that had it is muted.
    mutating func focus(_ index: Int) {
        guard configuration.layout.isGrid, planner.isVisible(index), audible != index else { return }
        setAudible(index)
    }

    private mutating func setAudible(_ index: Int) {
        let previous = audible
        audible = index
        if let previous, previous != index, slots[previous]?.playerIndex != nil {
            work.append(.setMuted(index: previous, muted: true))
        }
        if slots[index]?.playerIndex != nil, slots[index]?.activatedAt != nil {
            work.append(.setMuted(index: index, muted: false))
        }
        emit(.audible(index: index))
    }

    /// Whether visible video `index` must wait before it plays: a grid's video read over a link that holds less
    /// than ``FeedConfiguration/gridStartBuffer`` ahead (and not all of it).
    func waitsToPlay(_ index: Int) -> Bool {
        guard configuration.layout.isGrid, entries[index].kind == .video, RemoteLoading.isRemote(url(of: index))
        else { return false }
        guard let facts = facts[index] else { return true }
        let end = facts.heldEndAtPosition ?? facts.heldEndFromStart
        guard let end else { return true }
        return end - facts.position < configuration.gridStartBuffer && end < facts.duration - 0.05
    }

    /// The visible videos waiting for their buffer play once they hold it.
    mutating func startWaitingCells() {
        guard configuration.layout.isGrid else { return }
        for index in planner.visible where slots[index]?.waitsToPlay == true {
            guard slots[index]?.playerIndex != nil, slots[index]?.activatedAt != nil, !waitsToPlay(index) else {
                continue
            }
            slots[index]?.waitsToPlay = false
            work.append(.play(index: index, video: true))
        }
    }
}

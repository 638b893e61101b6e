/// What the active item's cell shows (decisions): its first frame when its player has one, else its poster when
/// it is ready (the stand-in), else nothing; said as it becomes active (`feed.picture`) and counted in the summary
/// (swipes that showed nothing at all, and those that showed a poster), and said again when its poster comes while
/// it shows nothing.
extension FeedState {
    /// Item `index` just became active: what its cell shows now.
    mutating func showPicture(_ index: Int) {
        guard let slot = slots[index] else { return }
        let picture: FeedEvent.Picture
        if slot.activatedWithFrame {
            picture = .firstFrame
        } else if posterSlots[index]?.ready != nil {
            picture = .poster
        } else {
            picture = .nothing
        }
        slots[index]?.picture = picture
        // The feed's first item is not a swipe (nor, in a grid, are the first screen's cells).
        if configuration.layout.isGrid ? gridScrolls > 1 : summary.activations > 1 {
            switch picture {
            case .nothing: summary.blankSwipes += 1
            case .poster: summary.posterSwipes += 1
            case .firstFrame: break
            }
        }
        emit(.picture(index: index, shows: picture))
    }

    /// Item `index`'s poster is ready: the active item showing nothing shows it.
    mutating func posterShown(_ index: Int) {
        guard planner.isVisible(index), let slot = slots[index], slot.activatedAt != nil,
            slot.picture == FeedEvent.Picture.nothing,
            !slot.frameShown
        else { return }
        slots[index]?.picture = .poster
        emit(.picture(index: index, shows: .poster))
    }
}

/// How the user scrolls a feed in one run of `playctl feed`: steps at times from the start, and when the run ends.
///
/// A step whose item differs from the one before (the first step included) is a swipe onto that item: it becomes
/// the active one. A step on the same item only changes the scroll speed, as a fling settling on its item does.
struct FeedScroll: Equatable, Sendable {
    /// At `at` seconds from the start the user is on item `index`, scrolling at `speed` items a second; `tap`: the
    /// user taps it (an item over the link's autoload cap loads and plays: `FeedController.play(index:)`).
    struct Step: Equatable, Sendable {
        var at: Double
        var index: Int
        var speed: Double
        var tap = false
    }

    /// In time order (non-decreasing), never empty.
    let steps: [Step]
    /// Seconds from the start at which the run ends (the last item's dwell over); at or after the last step.
    let end: Double

    /// Whether `steps[position]` moves onto another item.
    func isSwipe(_ position: Int) -> Bool {
        position == 0 || steps[position].index != steps[position - 1].index
    }

    /// The swipes after the first item.
    var swipes: Int { steps.indices.filter(isSwipe).count - 1 }

    /// Steps faster than `speed` items a second (flings, for the planner at that speed).
    func flings(above speed: Double) -> Int { steps.filter { $0.speed > speed }.count }

    /// The scroll as far as its first `count` steps (an endless feed whose pages ended before the scroll did): it
    /// ends when the next step would have come (the last item's dwell).
    func prefix(_ count: Int) -> FeedScroll {
        let kept = max(count, 1)
        guard kept < steps.count else { return self }
        return FeedScroll(steps: Array(steps.prefix(kept)), end: steps[kept].at)
    }
}

import Feed

/// What happened while the user was on one item, from the swipe onto it to the next swipe (or the end): a line of
/// `playctl feed`'s readable output.
struct FeedSwipe: Sendable {
    /// 0 for the first item, then 1, 2, ...
    let number: Int
    let index: Int
    /// Feed seconds when the user swiped onto it.
    let time: Double
    /// Items a second (a fling above the planner's fling speed).
    let speed: Double
    /// The first event that belongs to it: events are numbered (`FeedEvent.sequenceNumber`) in the order the feed
    /// made them, and this number was taken just before the swipe.
    let firstSequenceNumber: UInt64

    /// How it became active (nil: it did not, having failed before).
    var activation: (prepared: Bool, hasFrame: Bool)?
    /// Seconds from becoming active to a frame on screen, playing.
    var firstFrameLatency: Double?
    /// It was over the link's autoload cap as it came on screen (`feed.capped`): active only once tapped.
    var capped = false
    /// Why it failed, if it did while the user was on it.
    var failure: String?
    /// Stalls that began, and prefetches (of any item) that started, finished or were cancelled, meanwhile.
    var stalls = 0
    var prefetchesStarted = 0
    var prefetchesFinished = 0
    var prefetchesCancelled = 0

    /// Counts `event`, one of those made while the user was on the item.
    mutating func record(_ event: FeedEvent) {
        switch event.kind {
        case .active(let index, let prepared, let hasFrame) where index == self.index:
            activation = (prepared, hasFrame)
        case .firstFrame(let index, let latency, _) where index == self.index:
            firstFrameLatency = latency
        case .capped(let index, _, _) where index == self.index:
            capped = true
        case .failed(let index, let error) where index == self.index:
            failure = error
        case .stall(let index, false, _) where index == self.index:
            stalls += 1
        case .prefetch(_, _, _, let outcome):
            switch outcome {
            case .started: prefetchesStarted += 1
            case .finished: prefetchesFinished += 1
            case .cancelled: prefetchesCancelled += 1
            case .failed: break
            }
        default:
            break
        }
    }
}

/// What a run did, read from its JSON Lines (`playctl play --json`, `playctl feed --json`): the pieces a timeline
/// picture draws, each at its run time in seconds (an event's `host`, or a feed event's `time`).
public struct RunTimeline: Sendable, Equatable {
    /// The player's time-control status from one change to the next.
    public struct StatusBand: Sendable, Equatable {
        public var start: Double
        public var end: Double
        /// `playing`, `paused` or `waitingToPlayAtSpecifiedRate`.
        public var status: String
        /// The waiting reason, when waiting.
        public var reason: String?
    }

    /// A seek: asked at `start` from `from` (media seconds), landed at `end` on `to`.
    public struct Seek: Sendable, Equatable {
        public var start: Double
        public var end: Double?
        public var from: Double
        public var requested: Double
        public var to: Double?
        public var latency: Double?
        public var finished: Bool
    }

    /// The loaded media ranges from one report to the next.
    public struct Loaded: Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var ranges: [ClosedRange<Double>]
    }

    /// A point event drawn as a mark: a stall, a rate change, a PiP step, a content swap, a new item.
    public struct Mark: Sendable, Equatable {
        public enum Kind: String, Sendable {
            case stall, rate, pip, swap, item
        }

        public var time: Double
        public var kind: Kind
        public var label: String
    }

    /// A feed item while it was on screen: its swipe (when it became visible), first frame, stalls and bytes.
    public struct FeedItem: Sendable, Equatable {
        public var index: Int
        public var visible: Double
        public var left: Double?
        public var firstFrame: Double?
        public var prefetchedBytes: Int
        public var stalls: Int
    }

    public var statusBands: [StatusBand] = []
    public var seeks: [Seek] = []
    public var loaded: [Loaded] = []
    /// The playhead of each item: (run time, media time) of every event naming the item, in the order items
    /// first appear.
    public var playheads: [(item: String, points: [(run: Double, media: Double)])] = []
    public var marks: [Mark] = []
    public var feedItems: [FeedItem] = []
    /// The last run time any event gives.
    public var end: Double = 0
    /// The greatest media time any event gives (a duration, a range's end, a seek).
    public var mediaEnd: Double = 0
    /// Events read.
    public var eventCount = 0
    /// Bytes prefetched per feed item.
    private var prefetched: [Int: Int] = [:]
    /// The first frame's time per feed item.
    private var firstFrames: [Int: Double] = [:]

    public static func == (lhs: RunTimeline, rhs: RunTimeline) -> Bool {
        lhs.statusBands == rhs.statusBands && lhs.seeks == rhs.seeks && lhs.loaded == rhs.loaded
            && lhs.marks == rhs.marks && lhs.feedItems == rhs.feedItems && lhs.end == rhs.end
            && lhs.playheads.elementsEqual(rhs.playheads) {
                $0.item == $1.item && $0.points.elementsEqual($1.points) { $0.run == $1.run && $0.media == $1.media }
            }
    }

    public init() {}

    /// The timeline of `events` (JSON objects in the order printed; objects without an `event` name are skipped).
    public init(events: [JSONValue]) {
        for event in events { add(event) }
        finish()
    }

    private mutating func add(_ event: JSONValue) {
        guard let name = event["event"]?.stringValue else { return }
        eventCount += 1
        let isFeed = name.hasPrefix("feed.") || name.hasPrefix("pool.")
        guard let at = (isFeed ? event["time"] : event["host"])?.doubleValue ?? event["time"]?.doubleValue else {
            return
        }
        end = max(end, at)
        let media = isFeed ? nil : event["time"]?.doubleValue
        if let media, let item = event["item"]?.stringValue, !name.hasPrefix("metric.seek") {
            if let index = playheads.firstIndex(where: { $0.item == item }) {
                playheads[index].points.append((at, media))
            } else {
                playheads.append((item, [(at, media)]))
            }
            mediaEnd = max(mediaEnd, media)
        }
        if let duration = event["duration"]?.doubleValue, name == "item.status" { mediaEnd = max(mediaEnd, duration) }
        switch name {
        case "player.timeControlStatus":
            if let last = statusBands.indices.last { statusBands[last].end = at }
            statusBands.append(
                StatusBand(
                    start: at, end: at, status: event["status"]?.stringValue ?? "?",
                    reason: event["reason"]?.stringValue))
        case "metric.seek":
            mediaEnd = max(mediaEnd, event["requestedTime"]?.doubleValue ?? 0, event["fromTime"]?.doubleValue ?? 0)
            seeks.append(
                Seek(
                    start: at, end: nil, from: event["fromTime"]?.doubleValue ?? 0,
                    requested: event["requestedTime"]?.doubleValue ?? 0, to: nil, latency: nil, finished: false))
        case "metric.seekDidComplete":
            // Seeks complete in order (a newer one supersedes an older: that one completes first, not finished).
            if let index = seeks.firstIndex(where: { $0.end == nil }) {
                seeks[index].end = at
                seeks[index].to = event["landedTime"]?.doubleValue
                seeks[index].latency = event["latency"]?.doubleValue
                seeks[index].finished = event["finished"]?.boolValue ?? false
            }
        case "item.loadedTimeRanges":
            if let last = loaded.indices.last { loaded[last].end = at }
            let ranges = (event["ranges"]?.arrayValue ?? []).compactMap { pair -> ClosedRange<Double>? in
                guard let start = pair[0]?.doubleValue, let end = pair[1]?.doubleValue, end >= start else { return nil }
                return start...end
            }
            mediaEnd = max(mediaEnd, ranges.map(\.upperBound).max() ?? 0)
            loaded.append(Loaded(start: at, end: at, ranges: ranges))
        case "item.stalled":
            marks.append(Mark(time: at, kind: .stall, label: "stall"))
        case "player.rate":
            marks.append(Mark(time: at, kind: .rate, label: DecimalText.format(event["rate"]?.doubleValue ?? 0) + "x"))
        case "pip.contentSource":
            marks.append(Mark(time: at, kind: .swap, label: "swap " + (event["item"]?.stringValue ?? "")))
        case "player.currentItem":
            marks.append(Mark(time: at, kind: .item, label: event["item"]?.stringValue ?? "none"))
        case "pip.willStart", "pip.didStart", "pip.willStop", "pip.didStop", "pip.restoreUserInterface",
            "pip.failedToStart":
            marks.append(Mark(time: at, kind: .pip, label: String(name.dropFirst(4))))
        case "feed.visible":
            let index = event["index"]?.intValue ?? 0
            if let last = feedItems.indices.last, feedItems[last].left == nil { feedItems[last].left = at }
            feedItems.append(
                FeedItem(index: index, visible: at, left: nil, firstFrame: nil, prefetchedBytes: 0, stalls: 0))
        case "feed.firstFrame":
            // A prepared item's first frame may come before it shows: it is then on screen as it shows.
            let index = event["index"]?.intValue ?? 0
            if firstFrames[index] == nil { firstFrames[index] = at }
        case "feed.prefetch":
            // An item's prefetches (before it shows, or while another does), the last report of each counted.
            let index = event["index"]?.intValue ?? 0
            prefetched[index] = max(prefetched[index] ?? 0, event["bytes"]?.intValue ?? 0)
        case "feed.stall":
            let index = event["index"]?.intValue
            if event["ended"]?.boolValue == false,
                let item = feedItems.indices.last(where: { feedItems[$0].index == index })
            {
                feedItems[item].stalls += 1
            }
            if event["ended"]?.boolValue == false { marks.append(Mark(time: at, kind: .stall, label: "stall")) }
        default:
            break
        }
    }

    private mutating func finish() {
        for item in feedItems.indices {
            let index = feedItems[item].index
            feedItems[item].prefetchedBytes = prefetched[index] ?? 0
            feedItems[item].firstFrame = firstFrames[index].map { max($0, feedItems[item].visible) }
        }
        if let last = statusBands.indices.last { statusBands[last].end = end }
        if let last = loaded.indices.last { loaded[last].end = end }
        if let last = feedItems.indices.last, feedItems[last].left == nil { feedItems[last].left = end }
    }
}

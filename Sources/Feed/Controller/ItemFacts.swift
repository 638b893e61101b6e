import Playback

/// What the feed reads of an item's player before a decision (the driver reads it with the feed's lock released,
/// and passes it in): where its playhead is, what media it holds, and the bytes played. A test makes these up.
struct ItemFacts: Sendable, Equatable {
    /// The playhead, in seconds.
    var position = 0.0
    /// The item's duration (infinity while unknown).
    var duration = Double.infinity
    /// The end of the loaded time range that holds the playhead (nil: none does), and of the one that holds the
    /// start.
    var heldEndAtPosition: Double?
    var heldEndFromStart: Double?
    /// The byte offset of the playhead, and the resource's length, by its byte timeline (nil: not known).
    var playedOffset: Int64?
    var totalLength: Int64?
    /// An HLS or DASH item's bytes for all it decided to play (``PlayerItem/streamBytesPlayed(upTo:)``), what a
    /// looped one played; its ``playedOffset`` is its bytes played up to the playhead (nil: not adaptive, or its
    /// playhead not read).
    var streamBytesToEnd: Int64?
    /// The byte offset of the media at ``firstPicturesSeconds`` from the start (nil: its header not read yet): what
    /// its first pictures need.
    var firstPicturesBytes: Int64?

    /// The media from the start whose bytes a first picture needs (``PrefetchPolicy/inactiveVideoSeconds``).
    static let firstPicturesSeconds = 0.2

    init(
        position: Double = 0, duration: Double = .infinity, heldEndAtPosition: Double? = nil,
        heldEndFromStart: Double? = nil, playedOffset: Int64? = nil, totalLength: Int64? = nil
    ) {
        self.position = position
        self.duration = duration
        self.heldEndAtPosition = heldEndAtPosition
        self.heldEndFromStart = heldEndFromStart
        self.playedOffset = playedOffset
        self.totalLength = totalLength
    }

    /// Reads `item` (its own locks; never call with the feed's held). Its playhead only when `playhead` (the
    /// active item's: the others' decisions look at what they hold from their start; the playhead is read under
    /// the player's engine lock, which its thread holds while it works).
    init(reading item: PlayerItem, playhead: Bool) {
        let position = playhead ? item.currentTime().seconds : 0
        let duration = item.duration
        let ranges = item.loadedTimeRanges
        func heldEnd(from position: Double) -> Double? {
            ranges.first { $0.start.seconds <= position + 0.001 && $0.end.seconds >= position }?.end.seconds
        }
        let timeline = item.byteTimeline
        self.init(
            position: position, duration: duration.isNumeric ? duration.seconds : .infinity,
            heldEndAtPosition: heldEnd(from: position), heldEndFromStart: heldEnd(from: 0),
            playedOffset: timeline?.offset(atSeconds: position), totalLength: timeline?.totalLength)
        firstPicturesBytes = timeline?.offset(atSeconds: Self.firstPicturesSeconds)
        if timeline == nil, playhead, let played = item.streamBytesPlayed(upTo: position) {
            playedOffset = played
            streamBytesToEnd = item.streamBytesPlayed(upTo: .infinity)
        }
    }

    /// What it holds ahead of its playhead: seconds of media, and whether that reaches its end (nil: no loaded
    /// range holds the playhead).
    var heldAhead: (seconds: Double, complete: Bool)? {
        guard let end = heldEndAtPosition else { return nil }
        return (max(end - position, 0), end >= duration - 0.05)
    }
}

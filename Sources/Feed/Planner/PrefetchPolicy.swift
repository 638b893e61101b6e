/// The rules a ``PrefetchPlanner`` follows, each configurable. The defaults are the cost budget short-video teams
/// report: a video costs 2, an image 1, at most 5 in flight (the active item included); an inactive video only up
/// to what its first pictures need (its first 200 KB when its header does not tell); ranked by distance in the
/// scroll direction; less on cellular, nothing under constrained.
public struct PrefetchPolicy: Sendable, Hashable, Codable {
    /// What one item in flight costs.
    public var videoCost = 2
    public var imageCost = 1
    /// The most cost in flight at once, by network profile.
    public var budget = 5
    public var cellularBudget = 3
    /// Under `constrained`, only the active item loads.
    public var constrainedBudget = 0
    /// How much of an inactive video is fetched ahead (its start: the header and first frames), when its header
    /// does not tell what its first pictures need (or ``inactiveVideoFromHeader`` is off).
    public var inactiveVideoBytes: Int64 = 200 << 10
    /// Whether an inactive video is fetched to a duration of its media, as its container's index says: its first
    /// ``inactiveVideoHeaderBytes`` first, then up to the end of its video samples of the first
    /// ``inactiveVideoSeconds`` (what is stored before them comes along), at most ``inactiveVideoMaxBytes``. The
    /// default 0.2 s is what its first pictures need: the first keyframe and what a decoder takes in before its
    /// first picture. The clips of `bench --feed` (720p and 1080p at 2-5 Mbit/s) need 130-325 KB by ffprobe's
    /// packet offsets: a fixed 200 KB fell short of the first pictures of 6 of the 10, and fetched more than they
    /// need for the other 4. A header that does not tell (an index further in or at the end, Matroska's cues
    /// without sizes, MPEG-TS) falls back to ``inactiveVideoBytes``.
    public var inactiveVideoFromHeader = true
    public var inactiveVideoSeconds = 0.2
    public var inactiveVideoHeaderBytes: Int64 = 32 << 10
    public var inactiveVideoMaxBytes: Int64 = 1 << 20
    /// Items considered ahead of the active one in the scroll direction, and behind it.
    public var windowAhead = 4
    public var windowBehind = 1
    /// Whether the nearest video in the scroll direction gets a player with its first frame decoded.
    public var preparesNext = true
    /// Above this scroll speed (items a second, a fling) nothing but the active item is prefetched: what is passed
    /// in a blink is not worth bytes.
    public var flingSpeed = 4.0
    /// The largest video (in bytes, as its entry tells: ``FeedEntry/expectedByteSize``) that loads by itself, by
    /// network profile; nil: no cap. A video over the cap is neither prefetched nor prepared, and when it becomes
    /// the active item it is not loaded either: its cell shows its poster until the user taps it
    /// (``FeedController/play(index:)``), and `feed.capped` says so. A remote video whose entry tells neither its
    /// size nor (with renditions) a rendition's size or bit rate and duration is sized first (the byte cache, or a
    /// `HEAD`: ``PrefetchPlanner/Action/probeSize(index:)``); one the probe cannot size is never capped. None
    /// unconstrained; 20 MiB on cellular (a minute of a 2.5 Mbit/s short video: what a feed spends on a long item
    /// the user may skip); 5 MiB when constrained (the user asked to save data).
    public var autoloadByteCap: Int64?
    public var cellularAutoloadByteCap: Int64? = 20 << 20
    public var constrainedAutoloadByteCap: Int64? = 5 << 20

    public init() {}

    /// The autoload cap under `profile` (nil: none).
    public func autoloadByteCap(for profile: NetworkProfile) -> Int64? {
        switch profile {
        case .unconstrained: return autoloadByteCap
        case .cellular: return cellularAutoloadByteCap
        case .constrained: return constrainedAutoloadByteCap
        }
    }

    /// The budget under `profile`.
    public func budget(for profile: NetworkProfile) -> Int {
        switch profile {
        case .unconstrained: return budget
        case .cellular: return cellularBudget
        case .constrained: return constrainedBudget
        }
    }

    /// What an entry costs in flight.
    public func cost(of kind: FeedEntry.Kind) -> Int { kind == .video ? videoCost : imageCost }
}

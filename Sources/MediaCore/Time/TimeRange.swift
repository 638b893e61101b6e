/// A span of media time, like `CMTimeRange`.
public struct TimeRange: Sendable, Equatable, CustomStringConvertible {
    public var start: MediaTime
    public var duration: MediaTime

    public init(start: MediaTime, duration: MediaTime) {
        self.start = start
        self.duration = duration
    }

    public var end: MediaTime { start + duration }

    public func contains(_ time: MediaTime) -> Bool { time >= start && time <= end }

    public var description: String { "[\(start.seconds), \(end.seconds)]" }
}

/// Where in a file's bytes its media times lie: points (byte offset, media time) from the container's index,
/// increasing, with straight lines between them (and a constant bit rate when there is no index), to tell how much
/// media the bytes held so far cover.
public struct ByteTimeline: Sendable, Equatable {
    /// Byte offsets and the media time (seconds) of what starts there, both increasing.
    public private(set) var points: [(offset: Int64, seconds: Double)]
    /// The file's length and the media's duration, for the stretch after the last point (and the whole file
    /// without points).
    public var totalLength: Int64?
    public var duration: Double?

    /// A timeline through `points` (sorted and thinned to at most `limit` here, keeping the first and the last).
    public init(
        points: [(offset: Int64, seconds: Double)], totalLength: Int64? = nil, duration: Double? = nil,
        limit: Int = 512
    ) {
        var sorted = points.sorted { $0.offset < $1.offset }
        // Interleaved files repeat offsets and may run back a little in time: keep what increases in both.
        var kept: [(offset: Int64, seconds: Double)] = []
        for point in sorted where point.seconds.isFinite {
            if let last = kept.last, point.offset <= last.offset || point.seconds < last.seconds { continue }
            kept.append(point)
        }
        if kept.count > limit, limit >= 2 {
            let step = Double(kept.count - 1) / Double(limit - 1)
            kept = (0..<limit).map { kept[Int((Double($0) * step).rounded())] }
        }
        sorted = kept
        self.points = sorted
        self.totalLength = totalLength
        self.duration = duration
    }

    public static func == (lhs: ByteTimeline, rhs: ByteTimeline) -> Bool {
        lhs.points.elementsEqual(rhs.points) { $0.offset == $1.offset && $0.seconds == $1.seconds }
            && lhs.totalLength == rhs.totalLength && lhs.duration == rhs.duration
    }

    /// The media time (seconds) of what lies at byte `offset`; nil when nothing tells.
    public func seconds(atByte offset: Int64) -> Double? {
        if let total = totalLength, let duration, offset >= total { return duration }
        guard let first = points.first else {
            guard let total = totalLength, total > 0, let duration else { return nil }
            return Double(offset) / Double(total) * duration
        }
        if offset <= first.offset {
            return first.offset > 0 ? first.seconds * Double(offset) / Double(first.offset) : first.seconds
        }
        var low = 0
        var high = points.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if points[middle].offset <= offset { low = middle } else { high = middle - 1 }
        }
        let a = points[low]
        let b: (offset: Int64, seconds: Double)
        if low + 1 < points.count {
            b = points[low + 1]
        } else if let total = totalLength, let duration, total > a.offset {
            b = (total, duration)
        } else {
            return a.seconds
        }
        let fraction = Double(offset - a.offset) / Double(b.offset - a.offset)
        return a.seconds + fraction * (b.seconds - a.seconds)
    }

    /// The byte offset where the media at `seconds` lies (the inverse of ``seconds(atByte:)``): how much of the
    /// file playing up to `seconds` needs. Nil when nothing tells.
    public func offset(atSeconds seconds: Double) -> Int64? {
        if let duration, let total = totalLength, seconds >= duration { return total }
        guard let first = points.first else {
            guard let total = totalLength, let duration, duration > 0 else { return nil }
            return Int64((max(seconds, 0) / duration * Double(total)).rounded())
        }
        if seconds <= first.seconds {
            return first.seconds > 0 ? Int64(Double(first.offset) * max(seconds, 0) / first.seconds) : first.offset
        }
        var low = 0
        var high = points.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if points[middle].seconds <= seconds { low = middle } else { high = middle - 1 }
        }
        let a = points[low]
        let b: (offset: Int64, seconds: Double)
        if low + 1 < points.count {
            b = points[low + 1]
        } else if let total = totalLength, let duration, duration > a.seconds {
            b = (total, duration)
        } else {
            return totalLength ?? a.offset
        }
        let fraction = (seconds - a.seconds) / (b.seconds - a.seconds)
        return a.offset + Int64((fraction * Double(b.offset - a.offset)).rounded())
    }
}
